// NOTIF-09: the page tokens a walk sends back, and those no next link gave.
import { parseRfc3339, toTimestamp } from '../state/clock.ts';
import { decodePosition } from '../state/index.ts';
import { SERVER_ERROR, type Fault } from './fault.ts';
import { breaksOn } from './feed-since.ts';
import { withQuery } from './requests.ts';

/** A page token this long is past anything a real one could be (a position is some 60 characters). */
const LONG = 1_024;

/**
 * Faults of the feed's reading of its `page` token (NOTIF-09) that only tokens no `next` link gave
 * meet: another since's, and tokens from the whole string space (`lib/arbitraries/tokens.ts`).
 */
export const FEED_TOKEN_FAULTS: Fault[] = [
  {
    name: 'page-token-of-another-since-served',
    rule: 'NOTIF-09',
    kind: 'paging',
    description:
      "A page token is served whatever since comes with it: another since's token gets that walk's " +
      'page, not 400.',
    notLive:
      "The interface does not say what a token with another since's gets: live, no 5xx is all it asks.",
    apply: (request, next) => {
      const position = decodePosition(request.query.get('page') ?? '');
      const since = parseRfc3339(request.query.get('since') ?? '');
      if (!position || since === undefined || position.time >= since) return next(request);
      return next(withQuery(request, (q) => q.set('since', toTimestamp(position.time - 1))));
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
