export { parameterCheck } from './contract.ts';
export { invalidAuthorization, nearKeys, otherContentType, unknownKey } from './headers.ts';
export { invalidIdentifier, nearUuids, unknownUuid } from './ids.ts';
export { atMostRuns, propertyParameters, withCoverage, withKnown } from './settings.ts';
export {
  knownSince,
  notRfc3339,
  SINCE_WINDOW,
  SKEW,
  sinceInFuture,
  sinceInWindow,
  sinceTooOld,
  wellInside,
  windowStart,
} from './since.ts';
export {
  DECIDED_CLASSES,
  decidedSince,
  ISO_8601_ONLY_CLASSES,
  iso8601OnlySince,
  OUT_OF_RANGE_CLASSES,
  outOfRangeSince,
  sinceForm,
  sinceFormCoverage,
  sinceForms,
  VALID_FORM_CLASSES,
  type SinceCase,
  type SinceForm,
} from './since-forms.ts';
export {
  foreignToken,
  foreignTokenCoverage,
  LONG_TOKEN,
  percentEncoded,
  TOKEN_CLASSES,
  type TokenCase,
} from './tokens.ts';
