import type { ApiClient } from '../../lib/client/client.ts';
import type { FeedPage } from '../../lib/paging/walk.ts';
import { expect } from '../fixtures.ts';

/** What the change feed's tests share: times, identifiers, and pages fetched through the client. */
export { DAY } from '../../lib/arbitraries/index.ts';
export const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export const iso = (ms: number) => new Date(ms).toISOString();

export type Notification = FeedPage['notifications'][number] & {
  lastModified?: string;
  publishReference?: string;
};
export const uuidOf = (uri: string) => new RegExp(`(${UUID})$`).exec(uri)?.[1];
export const typeOf = (n: { type: string }) => n.type.split('/').pop();

/** Fetches the pages of one walk through the client: every page is checked against the contract. */
export function pages(api: ApiClient) {
  return async (url: string): Promise<FeedPage> => {
    const response = await api.raw({ url });
    expect(response.status, url).toBe(200);
    return response.json as FeedPage;
  };
}

export async function listAt(api: ApiClient, since: string) {
  return api.call('listNotifications', { query: { since } });
}
