import { DAY, iso } from '../time.ts';
import { FeedLoop, walkFeed, type FeedPage } from '../paging/walk.ts';
import type { Answer } from './conformance.ts';
import type { PageLimit } from './page-limit.ts';

/**
 * Where each walk starts, in days before the side's now. A quiet service fills no page within a
 * day, so each start reaches further back, half a decade a step; the last stays a day inside the
 * 90-day window (NOTIF-04), so clock skew never makes it too old.
 */
export const WALK_DAYS = [1, 3, 10, 30, 89] as const;
/** Pages followed from each start: a bounded share of the live budget (at most 15 a side). */
export const WALK_PAGES = 3;

/** One side's walk: the answer it compares, and what it read to find it. */
export interface PageWalk {
  /** The first full page; else the fullest page read; else the answer that was no page at all. */
  answer: Answer;
  /** The answer's list and links, when it is a page. */
  page?: FeedPage;
  /** Elements of each page read, in the order read. */
  sizes: number[];
  full: boolean;
  /** What the walk read and which page it compares, for the report. */
  note: string;
}

/** An answer that is not a page of the list (a refusal, a body without it): the walk ends on it. */
class NotAPage extends Error {
  constructor(readonly answer: Answer) {
    super(`not a page: ${answer.status}`);
  }
}

const links = (value: unknown): FeedPage['links'] =>
  Array.isArray(value)
    ? value.filter(
        (l): l is FeedPage['links'][number] =>
          typeof (l as { href?: unknown })?.href === 'string' &&
          typeof (l as { rel?: unknown }).rel === 'string',
      )
    : [];

/**
 * Walks the feed back in time until a page is full: from each start of `WALK_DAYS` in turn, the
 * one walker follows `next` links for at most `WALK_PAGES` pages, and stops at the first page that
 * holds the limit or more. Every request goes through `ask`, so the side's budget and pace apply.
 */
export async function walkToFullPage(options: {
  page: PageLimit;
  now: number;
  firstUrl: (since: string) => string;
  ask: (url: string) => Promise<Answer>;
}): Promise<PageWalk> {
  const { page } = options;
  const sizes: number[] = [];
  let fullest: { answer: Answer; page: FeedPage } | undefined;
  const fetchPage = async (url: string): Promise<FeedPage> => {
    const answer = await options.ask(url);
    const body = (answer.body.kind === 'json' ? answer.body.value : undefined) as
      Record<string, unknown> | undefined;
    const list = body?.[page.field];
    if (answer.status !== 200 || !Array.isArray(list)) throw new NotAPage(answer);
    const read = { notifications: list as FeedPage['notifications'], links: links(body!.links) };
    sizes.push(list.length);
    if (!fullest || list.length > fullest.page.notifications.length) fullest = { answer, page: read };
    return read;
  };
  const starts: number[] = [];
  const loops: number[] = [];
  for (const days of WALK_DAYS) {
    starts.push(days);
    const since = iso(options.now - days * DAY);
    try {
      await walkFeed(
        fetchPage,
        options.firstUrl(since),
        WALK_PAGES,
        (p) => p.notifications.length >= page.limit,
      );
    } catch (error) {
      const read = `after ${sizes.length} page(s)`;
      if (error instanceof NotAPage)
        return {
          answer: error.answer,
          sizes,
          full: false,
          note: `the walk met a ${error.answer.status}, not a page, ${days} days back ${read}`,
        };
      // A loop is a defect of paging (NOTIF-09), not of page size: the walk goes on further back.
      if (!(error instanceof FeedLoop)) throw error;
      loops.push(days);
    }
    if (fullest!.page.notifications.length >= page.limit) break;
  }
  const { answer, page: found } = fullest!;
  const size = found.notifications.length;
  const full = size >= page.limit;
  const walked =
    `${sizes.length} page(s) walked from \`since\` ${starts.join(', ')} days back ` +
    `(${sizes.join(', ')} ${page.field})`;
  const compared = full ? 'compared the first full page' : 'no full page: compared the fullest';
  const looped = loops.length
    ? `; a next link led back to a page already read from ${loops.join(', ')} days back`
    : '';
  return {
    answer,
    page: found,
    sizes,
    full,
    note: `${walked}; ${compared}, ${size} (limit ${page.limit}, ${page.source})${looped}`,
  };
}
