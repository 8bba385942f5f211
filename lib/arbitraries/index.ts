export { parameterCheck } from './contract.ts';
export { invalidAuthorization, nearKeys, otherContentType, unknownKey } from './headers.ts';
export { invalidIdentifier, nearUuids, unknownUuid } from './ids.ts';
export { atMostRuns, propertyParameters, withKnown } from './settings.ts';
export {
  knownNotRfc3339,
  knownSince,
  notRfc3339,
  sinceInFuture,
  sinceInWindow,
  sinceTooOld,
  sinceWithOffset,
} from './since.ts';
