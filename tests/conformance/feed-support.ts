import type { ApiClient } from '../../lib/client/client.ts';
import type { Change, ChangeLog } from '../../mock/state/feed.ts';
import { walkFeed, type FeedPage } from '../../lib/paging/walk.ts';
import { iso } from '../../lib/time.ts';
import { UUID_AT_END } from '../../lib/uuid.ts';
import { expect } from '../fixtures.ts';

/** What the change feed's tests share: times, identifiers, and pages fetched through the client. */
export { DAY, HOUR, iso } from '../../lib/time.ts';
export { UUID } from '../../lib/uuid.ts';

export type Notification = FeedPage['notifications'][number] & {
  lastModified?: string;
  publishReference?: string;
};
export const uuidOf = (uri: string) => UUID_AT_END.exec(uri)?.[1];
export const typeOf = (n: { type: string }) => n.type.split('/').pop();

/** Fetches the pages of one walk through the client: every page is checked against the contract. */
export function pages(api: ApiClient) {
  return async (url: string): Promise<FeedPage> => {
    const response = await api.raw({ url });
    // Asked only when it fails: each expect is a step of the test, and a walk reads many pages.
    if (response.status !== 200) expect(response.status, url).toBe(200);
    return response.json as FeedPage;
  };
}

/**
 * Walks the feed from `since` (a time, or a timestamp as written) for at most `bound` pages, each
 * through the client.
 */
export function walkSince(
  api: ApiClient,
  target: { baseUrl: string },
  since: number | string,
  bound: number,
) {
  const at = typeof since === 'number' ? iso(since) : since;
  return walkFeed(pages(api), `${target.baseUrl}/content/notifications?since=${at}`, bound);
}

/**
 * Whether the feed delivers a change at all: the first pages of a fresh `since` just before it hold
 * it. A change a walk lost that a fresh since delivers was lost by a link (NOTIF-10, NOTIF-11); one
 * no since delivers is missing from the feed, which a walk from since finds as well (NOTIF-09).
 */
async function inFeed(fetchPage: (url: string) => Promise<FeedPage>, feedUrl: string, change: Change) {
  const url = new URL(feedUrl);
  url.search = `?since=${iso(change.time - 1)}`;
  const has = (page: FeedPage) =>
    page.notifications.some((n) => uuidOf(n.id) === change.contentId && typeOf(n) === change.type);
  // A few pages: a burst in one millisecond may fill the first.
  return has((await walkFeed(fetchPage, url.toString(), 5, has)).pages.at(-1)!);
}

/**
 * The rule a change lost by a walk breaks: `byLink`, the rule of the link that lost it, when a fresh
 * since still delivers it; the walk's (NOTIF-09) when none does. No change lost: `byLink`.
 */
export async function ruleOfLost(
  fetchPage: (url: string) => Promise<FeedPage>,
  feedUrl: string,
  lost: Change | undefined,
  byLink: string,
): Promise<string> {
  return lost && !(await inFeed(fetchPage, feedUrl, lost)) ? 'NOTIF-09' : byLink;
}

/** A feed page from `since`; `decides` the rules that state its answer (NOTIF-02 of a form of since). */
export async function listAt(api: ApiClient, since: string, decides?: readonly string[]) {
  return api.call('listNotifications', { query: { since }, ...(decides ? { decides } : {}) });
}

/** The time that most changes after `after` share: where one page could grow past its limit. */
export function busiestTime(log: ChangeLog, after: number): { time: number; count: number } {
  const perTime = new Map<number, number>();
  for (let i = log.firstAfter(after); i < log.length; i++) {
    const { time } = log.at(i)!;
    perTime.set(time, (perTime.get(time) ?? 0) + 1);
  }
  const [time, count] = [...perTime].reduce((a, b) => (b[1] > a[1] ? b : a), [after, 0]);
  return { time, count };
}
