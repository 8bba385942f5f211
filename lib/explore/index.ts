export { exploreContract, exploredRules, exploreOperation, UNKNOWN_PARAMETER } from './generate.ts';
export { FORM_PARAMETER, isFormParameter } from './form-cases.ts';
export { drawnParameters, validRequests } from './property.ts';
export { caseRefusalRules, refusalRules } from './expectations.ts';
export { failuresOf, judge, runCases, type Caller } from './run.ts';
export {
  budgetOrder,
  caseBudget,
  EXPLORATION_SHARE,
  liveSafe,
  PROPERTY_RUNS,
  perOperationLimit,
  resolveCase,
  selectCases,
  UNKNOWN_KEY,
  UNKNOWN_TOKEN,
  type CaseOptions,
  type ExploreData,
  type Selection,
} from './select.ts';
export {
  EXPLORATION_ANNOTATION,
  EXPLORE_ATTACHMENT,
  exploreSummaries,
  exploreSummary,
  summariseOutcomes,
  type ExploreAttachment,
  type ExploreRow,
} from './summary.ts';
export type {
  CaseOutcome,
  CaseRequest,
  DataName,
  Expectation,
  ExploreCase,
  ExploreOptions,
} from './types.ts';
export { WHOLE_REQUEST } from './types.ts';
export { explorationOf, productionTable, NOT_APPLICABLE, type ProductionRow } from './productions.ts';
