import { test } from '@playwright/test';
import type { ApiClient, ApiResponse } from '../../lib/client/client.ts';

/** The skip reason of a test that met a retired operation: a known state, never a failure. */
export const goneReason = (response: Pick<ApiResponse, 'operation' | 'gone'>) =>
  `gone: ${response.operation ?? 'the operation'} answered ${response.gone} (retired, DEPR-01); ` +
  'the rest is not run';

/**
 * Ends the test as skipped when the answer to a request for known data says a live service retired
 * the operation (the client decides what gone is, and the report lists it once).
 */
export function skipIfGone(api: ApiClient, response: ApiResponse): void {
  test.skip(api.retired(response), goneReason(response));
}
