import { bodyMatchesSchema } from './body-schema.ts';
import { contentTypeDocumented } from './content-type.ts';
import { meetsExpectations } from './expectations.ts';
import { noSecretEchoed } from './no-secret-echoed.ts';
import { noServerError } from './no-server-error.ts';
import { statusDocumented } from './status-documented.ts';
import type { Check, CheckContext, CheckFailure, Exchange } from './types.ts';

export type { Check, CheckContext, CheckFailure, Exchange } from './types.ts';

/** Every response, every time. */
export const ALL_CHECKS: Check[] = [
  noServerError,
  statusDocumented,
  contentTypeDocumented,
  bodyMatchesSchema,
  meetsExpectations,
  noSecretEchoed,
];
/** For deliberately odd requests whose answer the contract cannot foresee: only what always holds. */
export const SAFETY_CHECKS: Check[] = [noServerError, contentTypeDocumented, noSecretEchoed];

/** A HEAD answer is GET's without the body: its status and media type are checked, never a body. */
export const HEAD_CHECKS: Check[] = [noServerError, statusDocumented, contentTypeDocumented, noSecretEchoed];

export function runChecks(checks: Check[], exchange: Exchange, context: CheckContext): CheckFailure[] {
  return checks.flatMap((check) => check(exchange, context) ?? []);
}
