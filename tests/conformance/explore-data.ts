import type { ApiClient } from '../../lib/client/client.ts';
import { ApiCheckError } from '../../lib/client/types.ts';
import type { ExploreData } from '../../lib/explore/index.ts';
import type { TargetFixture } from '../fixtures.ts';
import { DAY, HOUR } from './feed-support.ts';

/** The baseline's `since` is an hour ago: the generated date-time of the contract's `since`. */

/**
 * Page tokens as only next links give them: one for a \`since\` an hour ago (the baseline's), and one
 * of another since, a month earlier, to send with the baseline's.
 */
export async function feedTokens(api: ApiClient, target: TargetFixture): Promise<ExploreData> {
  const tokenOf = async (since: number) => {
    // An answer the checks refuse gives no token: the cases that need one are not run, and the
    // baseline, which asks the same, fails for it where its rule is decided.
    const response = await api
      .call('listNotifications', { query: { since: new Date(since).toISOString() } })
      .catch((error: unknown) => {
        if (error instanceof ApiCheckError) return undefined;
        throw error;
      });
    if (!response) return undefined;
    const links = (response.json as { links?: { rel?: string; href?: string }[] } | undefined)?.links;
    const href = links?.find((link) => link.rel === 'next')?.href;
    return href ? (new URL(href).searchParams.get('page') ?? undefined) : undefined;
  };
  return {
    feedPage: await tokenOf(target.now() - HOUR),
    otherFeedPage: await tokenOf(target.now() - 30 * DAY),
  };
}

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
