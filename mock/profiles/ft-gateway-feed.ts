import { NEWEST_WITHHELD_MS, pageSize } from '../behaviour.ts';
import { wasSwitched } from '../switched.ts';
import { switches, type Json } from '../faults/fault.ts';
import { countOf, onNextLink } from '../faults/requests.ts';
import { shownLength } from '../handlers/feed.ts';
import { parseRfc3339 } from '../state/clock.ts';
import { decodePosition, encodePosition, toTimestamp } from '../state/index.ts';
import type { Context } from '../types.ts';
import type { Behaviour } from './profile.ts';
import { placeOf } from './share.ts';

/** Every how many full pages the next page repeats a change, and the share of polls that do. */
export const BOUNDARY_EVERY = 2;
export const POLL_SHARE = 0.5;

/** Boundaries each mock has linked where a repeat may start: every `BOUNDARY_EVERY`th starts one change back. */
const fullPages = new WeakMap<object, number>();

/** A next link that carries `since` alone, as every captured empty page's does. */
function sinceOnly(url: URL, since: string): void {
  url.search = '';
  url.searchParams.set('since', since);
}

/** The `since` a feed request was handled with, and the clock's time then. */
function sinceAndNow(context: Context) {
  const raw = context.request.query.get('since') ?? '';
  return { raw, since: parseRfc3339(raw), now: context.state.clock.now() };
}

/** The real feed's paging, as its captures, FT's documentation and its sibling feed's code show it. */
export const FEED_BEHAVIOURS: Behaviour[] = [
  {
    name: 'at-least-once',
    description:
      `Where a request starts, the change delivered just before comes again: after every ` +
      `${BOUNDARY_EVERY}nd full page the mock serves, the next page starts with the last change of the ` +
      `page before; and ${POLL_SHARE * 100}% of empty pages' since-only links (picked anew each minute), ` +
      'followed at the next poll or night, start with the newest change delivered before, again. Never ' +
      'inside a page, never a loop (a full page still moves on by all but one change; a poll repeats ' +
      'one change at most).',
    source:
      "FT's documentation: a notification may arrive more than once; FT's own feed monitor logs " +
      'repeats at page boundaries, across consecutive polls and after a link kept from the last poll.',
    apply: onNextLink((url, page, context) => {
      const { log, options } = context.state;
      const position = decodePosition(url.searchParams.get('page') ?? '');
      if (position && countOf(page) >= pageSize(context.defects)) {
        // One place back only where that place is the page's last change (a view may list another),
        // and of those boundaries every second one: a walk across two of them meets a repeat.
        const back = log.indexOf(position) - 1;
        const last = (page.notifications as Json[]).at(-1);
        const same =
          String(last?.id).endsWith(`/${log.contentIdAt(back)}`) &&
          last?.lastModified === toTimestamp(log.timeAt(back) ?? 0);
        if (!same) return;
        const served = (fullPages.get(log) ?? 0) + 1;
        fullPages.set(log, served);
        if (served % BOUNDARY_EVERY === 0)
          url.searchParams.set('page', encodePosition(log.positionOf(back, position.time)));
        return;
      }
      // Across polls: an empty page's since-only link may start one change back when that change is
      // alone in its millisecond, picked anew each minute: a walk stops at an empty page, so no loop.
      const linked = parseRfc3339(url.searchParams.get('since') ?? '');
      const shown = shownLength(context);
      const newest = log.timeAt(shown - 1);
      if (countOf(page) > 0 || position || linked === undefined || newest !== linked) return;
      if (log.firstAtOrAfter(newest) !== shown - 1) return;
      const minute = Math.floor(context.state.clock.now() / 60_000);
      if (placeOf(options.seed, `poll ${toTimestamp(linked)} ${minute}`) < POLL_SHARE)
        url.searchParams.set('since', toTimestamp(newest - 1));
    }),
  },
  {
    name: 'latest-per-item',
    description:
      'A page lists one notification per item: when an item changed more than once in the stretch of ' +
      'the feed a page covers, only its latest event (a page still fills to 200 with other items).',
    source:
      "FT's gateway schema (one notification per item per query window); the sibling feed groups by uuid.",
    apply: switches({ feedLatestPerItem: true }),
    changed: (_request, _response, seen) => wasSwitched(seen.context, 'feedLatestPerItem'),
  },
  {
    name: 'newest-withheld',
    description:
      `The changes of the newest ${NEWEST_WITHHELD_MS / 1000} seconds are not listed yet (a cache ` +
      'delay): a page covers since to the clock less that delay, and a later poll lists them.',
    source: "FT's sibling feed's code and its monitors: the newest seconds are withheld by a cache delay.",
    apply: switches({ feedWithholdsNewest: true }),
    changed: (_request, _response, seen) => wasSwitched(seen.context, 'feedWithholdsNewest'),
  },
  {
    name: 'empty-next-since-only',
    description:
      "An empty page's next link carries since only, no page: the later of the request's since " +
      "and the newest change's time, but before the clock's current millisecond, so following it " +
      'later delivers exactly the changes made since. While the clock has not passed the newest ' +
      "change's millisecond (a fixed clock), a change may still come in it, which no since alone " +
      'tells from those delivered: the link keeps its page token then.',
    source: "Every captured empty page of the real feed, and the sibling feed's current code.",
    apply: onNextLink((url, page, context) => {
      const { since, now } = sinceAndNow(context);
      const newest = context.state.log.timeAt(shownLength(context) - 1) ?? -Infinity;
      if (countOf(page) > 0 || since === undefined) return;
      if (since > now || now <= newest) return;
      sinceOnly(url, toTimestamp(Math.min(Math.max(since, newest), now - 1)));
    }),
  },
  {
    name: 'future-since-empty',
    description:
      'A since in the future is answered 200 with an empty page, whose next link repeats that since ' +
      '(since only); the 90-day lower bound still applies.',
    source:
      "The sibling feed's code checks only the lower bound of since (the content feed's is not public).",
    apply: (request, next, seen) =>
      onNextLink((url, _page, context) => {
        const { raw, since, now } = sinceAndNow(context);
        if (since !== undefined && since > now) sinceOnly(url, raw);
      })(request, (inner, more) => next(inner, { ...more, futureSinceServed: true }), seen),
  },
];
