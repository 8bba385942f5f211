// NOTIF-01 to NOTIF-04: the `since` the feed takes (required, RFC 3339, not in the future, 90 days).
import { DAY, parseRfc3339, toTimestamp } from '../state/clock.ts';
import { onStatus, rewrite, switches, SERVER_ERROR, type Fault } from './fault.ts';
import { withQuery } from './requests.ts';

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

/** A feed whose parser throws on a `since` of some form: a 500 in place of its answer. */
export function breaksOn(parameter: string, meets: (value: string) => boolean): Fault['apply'] {
  return (request, next, seen) => {
    const response = next(request);
    const value = request.query.get(parameter);
    if (seen.context?.operation.id !== 'listNotifications' || value === null || !meets(value))
      return response;
    return { status: 500, body: { message: 'Internal Server Error' } };
  };
}

/** A feed that reads `since` as `read` rewrites it (undefined: as it is): a parser taking a form for another. */
export function readAs(read: (since: string) => string | undefined): Fault['apply'] {
  return (request, next) => {
    const since = request.query.get('since');
    const taken = since === null ? undefined : read(since);
    return next(taken === undefined ? request : withQuery(request, (q) => q.set('since', taken)));
  };
}

/** An ISO 8601 week date (`2026-W47-1`) or ordinal date (`2026-320`) as the calendar date it names. */
function calendarDate(since: string): string | undefined {
  const week = /^(\d{4})-W(\d\d)-([1-7])(T.*)$/.exec(since);
  const ordinal = /^(\d{4})-(\d{3})(T.*)$/.exec(since);
  if (week) {
    const [year, w, d] = [Number(week[1]), Number(week[2]), Number(week[3])];
    // Week 1 holds 4 January; weeks start on Monday.
    const jan4 = Date.UTC(year, 0, 4);
    const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
    return `${new Date(monday + ((w - 1) * 7 + d - 1) * DAY).toISOString().slice(0, 10)}${week[4]}`;
  }
  if (ordinal)
    return `${new Date(Date.UTC(Number(ordinal[1]), 0, Number(ordinal[2]))).toISOString().slice(0, 10)}${ordinal[3]}`;
  return undefined;
}

const FIELDS =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** A timestamp of the right shape with a field out of range, rolled over as `Date.UTC` does. */
function rolledOver(value: string): string | undefined {
  const m = FIELDS.exec(value);
  if (!m || parseRfc3339(value) !== undefined) return undefined;
  const [year = 0, month = 0, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const millis = Number((m[7] ?? '.0').slice(1, 4).padEnd(3, '0'));
  const offset = (m[8] === '-' ? -1 : 1) * (Number(m[9] ?? 0) * 60 + Number(m[10] ?? 0));
  const time = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset * 60_000;
  return Number.isFinite(time) ? toTimestamp(time) : undefined;
}

/** A fault that answers a bad since with other than 400 takes away the 400 whose body NOTIF-14 reads. */
const NO_400 = ['NOTIF-14'];

/**
 * Change feed: faults of the `since` it takes. The forms no example shows (each RFC 3339 form and
 * each ISO 8601 form RFC 3339 refuses) come from `lib/arbitraries/since-forms.ts`.
 */
export const FEED_SINCE_FAULTS: Fault[] = [
  {
    name: 'since-optional',
    rule: 'NOTIF-01',
    kind: 'status',
    description: 'A request without since gets 200 (from the start of the window).',
    apply: switches({ sinceOptional: true }),
  },
  {
    name: 'since-missing-redirects',
    rule: 'NOTIF-01',
    kind: 'protocol',
    description: 'A request without since is redirected (302) to the feed of the last 24 hours.',
    apply: rewrite(['listNotifications'], (r, req, context) => {
      if (r.status !== 400 || req.query.has('since') || !context) return r;
      const since = toTimestamp(context.state.clock.now() - DAY);
      const location = `${req.origin}/content/notifications?since=${encodeURIComponent(since)}`;
      return { status: 302, headers: { Location: location }, body: { message: `See ${location}` } };
    }),
  },
  {
    name: 'since-lenient',
    rule: 'NOTIF-02',
    kind: 'status',
    description: 'since is read by Date.parse: a date alone or other non-RFC 3339 text gets 200.',
    apply: switches({ sinceReadLeniently: true }),
  },
  {
    name: 'since-fields-roll-over',
    rule: 'NOTIF-02',
    kind: 'value',
    description:
      'since is checked for its shape only: a field out of range (24:00, minute 60, offset +25:00) ' +
      'rolls over into a valid time.',
    apply: (request, next) => {
      const rolled = rolledOver(request.query.get('since') ?? '');
      return next(rolled ? withQuery(request, (q) => q.set('since', rolled)) : request);
    },
  },
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
    name: 'since-lower-case-breaks-server',
    rule: 'NOTIF-02',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A since with a lower-case t or z, which RFC 3339 allows, gets 500.',
    apply: breaksOn('since', (since) => /\dt\d|\dz$/.test(since)),
  },
  {
    name: 'since-unknown-offset-breaks-server',
    rule: 'NOTIF-02',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A since at offset -00:00 (RFC 3339 §4.3: UTC, local offset unknown) gets 500.',
    apply: breaksOn('since', (since) => since.endsWith('-00:00')),
  },
  {
    name: 'since-space-separator-breaks-server',
    rule: 'NOTIF-02',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A since with a space for T (which RFC 3339 §5.6 lets an application accept) gets 500.',
    apply: breaksOn('since', (since) => /^\d{4}-\d\d-\d\d \d/.test(since)),
  },
  {
    name: 'since-leap-second-breaks-server',
    rule: 'NOTIF-02',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A since at a leap second (23:59:60, in the grammar of RFC 3339) gets 500.',
    apply: breaksOn('since', (since) => /T23:59:60/i.test(since)),
  },
  {
    name: 'since-comma-fraction-accepted',
    rule: 'NOTIF-02',
    kind: 'status',
    description: 'A since with a comma before its fraction (ISO 8601, not RFC 3339) is served as a time.',
    apply: readAs((since) => (/:\d\d,\d/.test(since) ? since.replace(/(:\d\d),(\d)/, '$1.$2') : undefined)),
  },
  {
    name: 'since-basic-format-accepted',
    rule: 'NOTIF-02',
    kind: 'status',
    description: "A since in ISO 8601's basic format (20261116T101500Z, not RFC 3339) is served as a time.",
    apply: readAs((since) => {
      const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(Z)$/i.exec(since);
      return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : undefined;
    }),
  },
  {
    name: 'since-week-or-ordinal-date-accepted',
    rule: 'NOTIF-02',
    kind: 'status',
    description:
      'A since written as an ISO 8601 week date or ordinal date (not RFC 3339) is served as a time.',
    apply: readAs(calendarDate),
  },
  {
    name: 'since-short-offset-accepted',
    rule: 'NOTIF-02',
    kind: 'status',
    description:
      'A since with an offset of hours only (+05) or without its colon (+0545) is served as a time.',
    apply: readAs((since) => {
      const m = /^(.*:\d\d(?:\.\d+)?)([+-]\d\d)(\d\d)?$/.exec(since);
      return m ? `${m[1]}${m[2]}:${m[3] ?? '00'}` : undefined;
    }),
  },
  {
    name: 'future-since-accepted',
    rule: 'NOTIF-03',
    alsoBreaks: NO_400,
    kind: 'timing',
    description: 'A since in the future gets 200 (an empty page).',
    notLive:
      "Live, a 200 with an empty page is allowed (drift): FT's sibling feed answers so, and the " +
      'interface states what a client must send, not what the service answers.',
    apply: switches({ futureSinceServed: true }),
  },
  {
    name: 'future-since-lists-changes',
    rule: 'NOTIF-03',
    kind: 'timing',
    description:
      'A since in the future is answered 200 with the changes of the last day, as if it were a day ago: ' +
      'just outside the empty page a real feed may answer.',
    apply: (request, next, seen) => {
      const response = next(request);
      const since = parseRfc3339(request.query.get('since') ?? '');
      const now = seen.context?.state.clock.now();
      if (seen.context?.operation.id !== 'listNotifications' || since === undefined || now === undefined)
        return response;
      return since > now ? next(withQuery(request, (q) => q.set('since', toTimestamp(now - DAY)))) : response;
    },
  },
  {
    name: 'malformed-since-503',
    rule: 'HTTP-04',
    alsoBreaks: ['NOTIF-02'],
    kind: 'status',
    description:
      'A since that is not a timestamp gets 503 {"message": "server error"}, every time, while every ' +
      'other request is served: a gateway outage in form, a verdict on malformed input in fact.',
    apply: (request, next, seen) => {
      const response = next(request);
      const since = request.query.get('since');
      const malformed = since !== null && parseRfc3339(since) === undefined;
      return seen.context?.operation.id === 'listNotifications' && response.status === 400 && malformed
        ? { status: 503, body: { message: 'server error' } }
        : response;
    },
  },
  {
    name: 'future-since-422',
    rule: 'NOTIF-03',
    alsoBreaks: NO_400,
    kind: 'status',
    description: 'A since in the future gets 422 Unprocessable Entity, the framework default, not 400.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (b) => (/in the future/.test(String(b.message)) ? { status: 422, body: b } : undefined)),
    ),
  },
  {
    name: 'window-off-by-a-day',
    rule: 'NOTIF-04',
    kind: 'timing',
    description: 'since up to 91 days old is accepted: the window is a day too wide.',
    apply: switches({ sinceWindowADayWide: true }),
  },
  {
    name: 'window-an-hour-short',
    rule: 'NOTIF-04',
    kind: 'timing',
    description:
      'The window start is computed in local time across a daylight-saving change: since 89 days ' +
      '23 hours old gets 400.',
    apply: switches({ sinceWindowAnHourShort: true }),
  },
  {
    name: 'too-old-since-403',
    rule: 'NOTIF-04',
    alsoBreaks: NO_400,
    kind: 'status',
    description: 'A since older than 90 days gets 403 ("contact support"), not 400.',
    apply: rewrite(
      ['listNotifications'],
      onStatus(400, (b) =>
        /older than 90 days/.test(String(b.message)) ? { status: 403, body: b } : undefined,
      ),
    ),
  },
];
