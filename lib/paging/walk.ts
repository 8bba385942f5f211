import { says } from '../claims.ts';

/** A page of the change feed, as far as the walker needs it. */
export interface FeedPage {
  notifications: { id: string; type: string; apiUrl: string }[];
  links: { href: string; rel: string }[];
}

export interface Walk {
  pages: FeedPage[];
  /** Every notification delivered, in the order delivered. */
  notifications: FeedPage['notifications'];
  /** The `next` link of the last page: where the next poll starts. */
  next: string | undefined;
  /** Whether the walk reached an empty page (the end for now) within its bound. */
  ended: boolean;
}

export function nextLink(page: FeedPage): string | undefined {
  return page.links.find((link) => link.rel === 'next')?.href;
}

/** A next link that leads back to a page already read: its changes would come twice, and forever. */
export class FeedLoop extends Error {}

/**
 * Follows `next` links exactly as given, without change, from a first URL until a page comes back
 * empty, `maxPages` pages were read, or a page meets `enough` (the walk has found what it came
 * for). The fetcher does the HTTP (and its checks). A loop back to a page already read throws.
 */
export async function walkFeed(
  fetchPage: (url: string) => Promise<FeedPage>,
  firstUrl: string,
  maxPages: number,
  enough?: (page: FeedPage) => boolean,
): Promise<Walk> {
  const pages: FeedPage[] = [];
  let url: string | undefined = firstUrl;
  const read = new Set<string>();
  while (url !== undefined && pages.length < maxPages) {
    if (read.has(url))
      throw new FeedLoop(says('NOTIF-09', `a next link leads back to a page already read: ${url}`));
    read.add(url);
    const page = await fetchPage(url);
    pages.push(page);
    url = nextLink(page);
    if (page.notifications.length === 0)
      return { pages, notifications: pages.flatMap((p) => p.notifications), next: url, ended: true };
    if (enough?.(page)) break;
  }
  return { pages, notifications: pages.flatMap((p) => p.notifications), next: url, ended: false };
}
