import { parseRfc3339 } from '../handlers/feed.ts';
import { decodePosition } from '../state/index.ts';
import type { Fault } from './fault.ts';
import { withQuery } from './requests.ts';
import { toTimestamp } from '../state/clock.ts';

const FORM_NOT_PROMISED =
  'The interface shows its timestamps in one form only: live, another RFC 3339 form is held to no ' +
  '5xx, and a refusal is no failure.';

/** A feed that refuses a valid `since` written in some form, as a stricter parser would. */
function refuseSince(refused: (since: string) => boolean): Fault['apply'] {
  return (request, next, seen) => {
    const response = next(request);
    const since = request.query.get('since');
    if (seen.context?.operation.id !== 'listNotifications' || since === null || response.status !== 200)
      return response;
    return refused(since)
      ? { status: 400, body: { message: `since ${since} is not a timestamp` } }
      : response;
  };
}

/** Faults of the feed's input that only the forms no example shows meet: `since`'s, the page token's. */
export const FEED_INPUT_FAULTS: Fault[] = [
  {
    name: 'since-lower-case-refused',
    rule: 'NOTIF-02',
    kind: 'value',
    description: 'since with a lower-case t or z, which RFC 3339 allows, gets 400.',
    notLive: FORM_NOT_PROMISED,
    apply: refuseSince((since) => /\dt\d|z$/.test(since)),
  },
  {
    name: 'since-precision-refused',
    rule: 'NOTIF-02',
    kind: 'value',
    description: 'since with other than three fractional digits, which RFC 3339 allows, gets 400.',
    notLive: FORM_NOT_PROMISED,
    apply: refuseSince((since) => !/\.\d{3}([Zz]|[+-]\d{2}:\d{2})$/.test(since)),
  },
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
];
