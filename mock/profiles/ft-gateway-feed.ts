import { pageSize } from '../behaviour.ts';
import { countOf, onNextLink } from '../faults/requests.ts';
import { parseRfc3339 } from '../state/clock.ts';
import { decodePosition, encodePosition, toTimestamp } from '../state/index.ts';
import type { Context } from '../types.ts';
import type { Behaviour } from './profile.ts';

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
      'After every full page, the next page starts with the last change of the page before, again: ' +
      'a repeat at the page boundary, never a loop (each page still moves on by all but one change).',
    source:
      "FT's documentation: a notification may arrive more than once; FT's own feed monitor logs " +
      'repeats at page boundaries.',
    apply: onNextLink((url, page, context) => {
      const position = decodePosition(url.searchParams.get('page') ?? '');
      if (!position || countOf(page) < pageSize(context.defects)) return;
      const { log } = context.state;
      url.searchParams.set('page', encodePosition(log.positionOf(log.indexOf(position) - 1, position.time)));
    }),
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
      const newest = context.state.log.lastTime ?? -Infinity;
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
