import type { ApiClient } from '../../lib/client/client.ts';
import { ApiCheckError, type ApiResponse } from '../../lib/client/types.ts';
import type { Caller, ExploreData } from '../../lib/explore/index.ts';
import { nextLink, type FeedPage } from '../../lib/paging/walk.ts';
import type { TargetFixture } from '../fixtures.ts';
import { HOUR } from './feed-support.ts';

/**
 * The next link of the feed from a `since` an hour ago (the baseline's, the generated date-time of
 * the contract's `since`): the one request its page token goes in, since a service may refuse an
 * opaque token anywhere else.
 */
export async function feedNextLink(api: ApiClient, target: TargetFixture): Promise<ExploreData> {
  // An answer the checks refuse gives no link: the cases that need one are not run, and the
  // baseline, which asks the same, fails for it where its rule is decided.
  const response = await api
    .call('listNotifications', { query: { since: new Date(target.now() - HOUR).toISOString() } })
    .catch((error: unknown) => {
      if (error instanceof ApiCheckError) return undefined;
      throw error;
    });
  const page = response?.json as FeedPage | undefined;
  return { feedNext: page?.links ? nextLink(page) : undefined };
}

/** How the exploration sends a case: a link it follows as given, else the operation with its parameters. */
export const sendCase =
  (api: ApiClient): Caller<ApiResponse> =>
  (operationId, options) =>
    'url' in options ? api.raw(options) : api.call(operationId, options);

export function dataOf(target: TargetFixture): ExploreData {
  const d = target.data;
  return {
    licenceId: d.licenceId,
    userId: d.userId,
    pageId: d.pageId,
    contentId: d.contentId,
    imageUri: d.imageUri,
    svgImageUri: d.svgImageUri,
    imageSource: target.imageSource,
    token: d.token,
  };
}
