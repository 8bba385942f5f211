export { ajv, compileStrict } from './ajv.ts';
export { baseMediaType, Contract, loadContract, METHODS } from './contract.ts';
export type { Match, Method, Operation, Parameter, Response } from './contract.ts';
export {
  describeMisses,
  expectationWarnings,
  hasExpectation,
  isJsonMediaType,
  judgedBody,
  strictVariant,
} from './expect.ts';
export type { ExpectationWarning } from './expect.ts';
export { DOCUMENTS, loadDocument } from './load.ts';
export type { DocumentName } from './load.ts';
export { loadRules } from './rules.ts';
export type { Rule, Where } from './rules.ts';
export { assertionPaths, nearestRules, negotiationRules, ownerOf } from './owner.ts';
