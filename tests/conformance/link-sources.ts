import type { CallOptions } from '../../lib/client/client.ts';
import type { TargetFixture } from '../fixtures.ts';
import { DAY, iso } from './feed-support.ts';

/** How each operation a link starts from is asked, with the target's own data. */
export const LINK_SOURCES: Record<string, (target: TargetFixture) => CallOptions | undefined> = {
  listNotifications: (target) => ({ query: { since: iso(target.now() - (target.mock ? 10 : 1) * DAY) } }),
  listPagesV1: () => ({}),
  getPageV1: (target) => (target.data.pageId ? { path: { pageId: target.data.pageId } } : undefined),
  getContent: (target) => (target.data.contentId ? { path: { itemId: target.data.contentId } } : undefined),
  searchContent: () => ({ body: { queryString: 'banks', resultContext: { maxResults: 5 } } }),
};
