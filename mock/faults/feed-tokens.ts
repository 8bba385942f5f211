// NOTIF-09 and NOTIF-01: the page tokens a walk sends back, those no next link gave, and a token without its since.
import { DAY, toTimestamp } from '../state/clock.ts';
import { decodePosition } from '../state/index.ts';
import { SERVER_ERROR, type Fault } from './fault.ts';
import { breaksOn } from './feed-since.ts';
import { withQuery } from './requests.ts';

/** A page token this long is past anything a real one could be (a position is some 60 characters). */
const LONG = 1_024;

/**
 * Faults of the feed's reading of its `page` token (NOTIF-09) that only tokens no `next` link gave
 * meet: tokens from the whole string space (`lib/arbitraries/tokens.ts`). A real token goes only in
 * the link that carried it, so what a service does with one moved elsewhere is no rule's.
 */
export const FEED_TOKEN_FAULTS: Fault[] = [
  {
    name: 'page-without-since-accepted',
    rule: 'NOTIF-01',
    kind: 'paging',
    description: 'A page token alone is enough: since is taken from the token when it is missing.',
    notLive:
      "Live, a page token without since answered 200 with the link's own page is drift: the real " +
      "feed's next links may carry page alone (openapi/README.md).",
    apply: (request, next) => {
      const position = decodePosition(request.query.get('page') ?? '');
      if (request.query.has('since') || !position) return next(request);
      const since = toTimestamp(position.time - 1);
      return next(withQuery(request, (q) => q.set('since', since)));
    },
  },
  {
    name: 'page-without-since-restarts',
    rule: 'NOTIF-01',
    kind: 'paging',
    description:
      'A page token without since is answered 200 with the first page of the last day, the token ' +
      "ignored: just outside a real feed's answer to a link with page alone, which is the link's page.",
    apply: (request, next, seen) => {
      const response = next(request);
      const now = seen.context?.state.clock.now();
      if (request.query.has('since') || !request.query.has('page') || now === undefined) return response;
      return next(withQuery(request, (q) => (q.delete('page'), q.set('since', toTimestamp(now - DAY)))));
    },
  },
  {
    name: 'page-token-long-breaks-server',
    rule: 'NOTIF-09',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: `A page token longer than ${LONG} characters overflows a buffer: 500, not 400.`,
    apply: breaksOn('page', (token) => token.length > LONG),
  },
  {
    name: 'page-token-non-ascii-breaks-server',
    rule: 'NOTIF-09',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A page token with a character outside ASCII fails to decode: 500, not 400.',
    apply: breaksOn('page', (token) => [...token].some((c) => c.codePointAt(0)! > 0x7f)),
  },
  {
    name: 'page-token-percent-breaks-server',
    rule: 'NOTIF-09',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: "A page token holding a '%' is percent-decoded a second time and throws: 500, not 400.",
    apply: breaksOn('page', (token) => token.includes('%')),
  },
  {
    name: 'page-token-empty-breaks-server',
    rule: 'NOTIF-09',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'An empty page token (page=) is read as a position and throws: 500, not 400.',
    apply: breaksOn('page', (token) => token === ''),
  },
];
