import type { ApiClient, ApiResponse, CallOptions } from '../../lib/client/client.ts';
import type { Contract } from '../../lib/contract/index.ts';
import type { VARIABLES } from '../../lib/config.ts';
import { test, type TargetFixture } from '../fixtures.ts';
import { goneReason } from './gone.ts';
import { HOUR, iso } from '../../lib/time.ts';

/** A request expected to succeed for one operation, from the target's data. */
export interface Sample {
  operation: string;
  options: CallOptions;
}

/**
 * One successful call per operation of the main service that takes a key, as far as the target's
 * data allows; `missing` names the variables a live run would need for the rest.
 */
export function samples(target: TargetFixture): { samples: Sample[]; missing: (keyof typeof VARIABLES)[] } {
  const d = target.data;
  const since = iso(target.now() - HOUR);
  const list: Sample[] = [
    { operation: 'listNotifications', options: { query: { since } } },
    { operation: 'listTrialExclusionIpAddresses', options: {} },
    { operation: 'searchContent', options: { body: { queryString: 'banks' } } },
    { operation: 'listNotificationsV1', options: {} },
    { operation: 'listPagesV1', options: {} },
  ];
  const missing: (keyof typeof VARIABLES)[] = [];
  const add = (
    value: string | undefined,
    variable: keyof typeof VARIABLES,
    make: (v: string) => Sample[],
  ) => {
    if (value === undefined) missing.push(variable);
    else list.push(...make(value));
  };
  add(d.licenceId, 'CLM_LICENCE_ID', (licenceId) => [
    { operation: 'getLicence', options: { path: { licenceId } } },
  ]);
  add(d.token, 'CLM_USER_TOKEN', (token) => [
    {
      operation: 'getUserFullProfile',
      options: { path: { userId: d.userId! }, token, headers: { 'Content-Type': 'application/json' } },
    },
  ]);
  add(d.pageId, 'CLM_PAGE_ID', (pageId) =>
    ['getPageMainContent', 'getPageV1', 'getPageSkylineContent'].map((operation) => ({
      operation,
      options: { path: { pageId } },
    })),
  );
  add(d.contentId, 'CLM_CONTENT_ID', (itemId) =>
    ['getContent', 'getEnrichedContent', 'getContentItemV1'].map((operation) => ({
      operation,
      options: { path: { itemId } },
    })),
  );
  return { samples: list, missing };
}

/**
 * The samples of operations the target still serves: a deprecated operation that a live service
 * answers 404/410 with a valid key is gone (DEPR-01), and so out of every rule that touches it.
 */
export async function present(api: ApiClient, contract: Contract, target: TargetFixture): Promise<Sample[]> {
  const kept: Sample[] = [];
  for (const sample of samples(target).samples) {
    if (!target.promises.servesDeprecated && contract.operation(sample.operation).deprecated) {
      const response = await api.call(sample.operation, sample.options);
      if (api.retired(response)) {
        test.info().annotations.push({ type: 'note', description: goneReason(response) });
        continue;
      }
    }
    kept.push(sample);
  }
  return kept;
}

/** Success, or for a deprecated endpoint of a live service, gone (DEPR-01: gone is not a failure). */
export function succeeded(api: ApiClient, response: ApiResponse): boolean {
  return (response.status >= 200 && response.status < 300) || api.retired(response);
}

/** The rules that ask an error to say what was wrong, each of its operations. */
export const CAUSE_RULES = ['NOTIF-14', 'PROF-08'];

/** Whether an error body says something: at least one non-empty text field (NOTIF-14, PROF-08). */
export function describesCause(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.values(body).some((v) => typeof v === 'string' && v.trim() !== '')
  );
}
