import { switched } from '../switched.ts';
import { DAY } from '../state/clock.ts';
import { KINDS, type ContentKind } from '../state/content.ts';
import type { Context } from '../types.ts';

/**
 * The feed as one request sees it, where a switch makes it other than the log: only some kinds of
 * content listed, a millisecond's changes in uuid order. Places are the log's, so a position (a time
 * and an offset among all the changes of that millisecond) and the page token that carries it mean
 * the same whatever the view: only which change a place shows, and whether it is listed, differ.
 */
export interface FeedView {
  /** The log index of the change shown at a place. */
  at(place: number): number;
  /**
   * The places a page from `start` lists, at most `size` of them (past it only to finish a
   * millisecond, when `wholeTimestamps`), within a day of the first, and where it ends.
   */
  page(
    start: number,
    available: number,
    size: number,
    wholeTimestamps: boolean,
  ): { end: number; places: number[] };
}

/** The kinds a feed request lists: those `type` names (`All`: every kind), Articles when it names none. */
function kindsAsked(query: URLSearchParams): ReadonlySet<ContentKind> {
  const asked = query.getAll('type').map((t) => t.toLowerCase());
  if (asked.length === 0) return new Set(['Article']);
  return new Set(KINDS.filter((kind) => asked.includes('all') || asked.includes(kind.toLowerCase())));
}

/** The view the switches in force make, or none: the clean feed is the log as it is. */
export function feedView(context: Context): FeedView | undefined {
  const { defects, state } = context;
  if (!defects.feedListsArticlesOnly && !defects.feedTiesByUuid && !defects.feedLatestPerItem)
    return undefined;
  const { log, content, clock } = state;
  const kinds = defects.feedListsArticlesOnly ? kindsAsked(context.request.query) : undefined;
  /** The log indices of a millisecond's changes in the order shown, by its first place. */
  const orders = new Map<number, number[]>();

  const orderOf = (time: number): { first: number; order: number[] } => {
    const first = log.firstAtOrAfter(time);
    let order = orders.get(first);
    if (!order) {
      const end = log.firstAfter(time);
      order = Array.from({ length: end - first }, (_, i) => first + i);
      // While the clock stands in the newest millisecond a change may still join it, and a reader
      // part-way through would miss it or meet one twice: its order waits until the clock moves on.
      if (end < log.length || clock.now() > time)
        order.sort((a, b) => (log.contentIdAt(a)! < log.contentIdAt(b)! ? -1 : 1));
      orders.set(first, order);
    }
    return { first, order };
  };

  const at = (place: number): number => {
    const time = log.timeAt(place);
    const tied = time !== undefined && (log.timeAt(place - 1) === time || log.timeAt(place + 1) === time);
    if (!defects.feedTiesByUuid || !tied) return place;
    const { first, order } = orderOf(time);
    const index = order[place - first]!;
    if (index !== place) switched(context, 'feedTiesByUuid');
    return index;
  };

  const listed = (place: number): boolean => {
    if (!kinds) return true;
    const kind = content.kindOf(log.contentIdAt(at(place))!);
    if (kind !== undefined && kinds.has(kind)) return true;
    switched(context, 'feedListsArticlesOnly');
    return false;
  };

  /** Where a page that starts at `place` must end: a day past its first change, as the clean feed's. */
  const dayAfter = (place: number) => Math.max(log.firstAtOrAfter(log.timeAt(place)! + DAY), place + 1);

  return {
    at,
    page(start, available, size, wholeTimestamps) {
      const places: number[] = [];
      let [end, limit] = [start, available];
      /** The place each item is listed at on this page: its latest event wins. */
      const items = new Map<string, number>();
      for (; end < limit && places.length < size; end++) {
        if (!listed(end)) continue;
        if (places.length === 0) limit = Math.min(available, dayAfter(end));
        const item = log.contentIdAt(at(end))!;
        const earlier = defects.feedLatestPerItem ? items.get(item) : undefined;
        if (earlier !== undefined) {
          places.splice(places.indexOf(earlier), 1);
          switched(context, 'feedLatestPerItem');
        }
        items.set(item, end);
        places.push(end);
      }
      if (wholeTimestamps)
        for (; places.length > 0 && end < available && log.timeAt(end) === log.timeAt(end - 1); end++)
          if (listed(end)) places.push(end);
      return { end, places };
    },
  };
}
