export { parameterCheck } from './contract.ts';
export { invalidAuthorization, otherContentType, unknownKey } from './headers.ts';
export { invalidIdentifier, unknownUuid } from './ids.ts';
export { atMostRuns, propertyParameters } from './settings.ts';
export { notRfc3339, sinceInFuture, sinceInWindow, sinceTooOld, sinceWithOffset } from './since.ts';
