import type { CallOptions } from '../../lib/client/client.ts';
import { need, test, type TargetFixture } from '../fixtures.ts';
import { DAY, iso } from './feed-support.ts';

/**
 * How each operation a link starts from is asked, with the target's own data; without it, the test is
 * skipped.
 */
export const LINK_SOURCES: Record<string, (target: TargetFixture) => CallOptions | undefined> = {
  listNotifications: (target) => ({
    query: { since: iso(target.now() - (target.promises.unmetered ? 10 : 1) * DAY) },
  }),
  listPagesV1: () => ({}),
  getPageV1: (target) => ({ path: { pageId: need(target.data.pageId, 'CLM_PAGE_ID') } }),
  getContent: (target) => ({ path: { itemId: need(target.data.contentId, 'CLM_CONTENT_ID') } }),
  searchContent: () => ({ body: { queryString: 'banks', resultContext: { maxResults: 5 } } }),
};

/**
 * An element a link cannot be followed from (a search hit without `apiUrl`, as a podcast hit of the
 * real service is): skipped with a note, never failed.
 */
export function noteUnfollowable(note: string): void {
  test.info().annotations.push({ type: 'note', description: `not followed: ${note}` });
}
