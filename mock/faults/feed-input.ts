import { SERVER_ERROR, type Fault } from './fault.ts';
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
function readAs(read: (since: string) => string | undefined): Fault['apply'] {
  return (request, next) => {
    const since = request.query.get('since');
    const taken = since === null ? undefined : read(since);
    return next(taken === undefined ? request : withQuery(request, (q) => q.set('since', taken)));
  };
}

const DAY = 86_400_000;

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

/** A fraction of more than three digits read as a count of milliseconds (`.123456789`: 34 hours). */
function fractionAsMilliseconds(since: string): string | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{4,9})(Z|[+-]\d\d:\d\d)$/.exec(since.toUpperCase());
  const start = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  return Number.isNaN(start) ? undefined : new Date(start + Number(m![2])).toISOString();
}

/**
 * Faults of the feed's reading of `since` that only the forms no example shows meet: each RFC 3339
 * form and each ISO 8601 form RFC 3339 refuses (`lib/arbitraries/since-forms.ts` sends every one).
 */
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
    name: 'since-long-fraction-read-as-milliseconds',
    rule: 'NOTIF-09',
    kind: 'value',
    description:
      'A since with more than three fractional digits has its fraction read as milliseconds: ' +
      '.999999999 starts the feed eleven days late.',
    apply: readAs(fractionAsMilliseconds),
  },
  {
    name: 'since-offset-minutes-dropped',
    rule: 'NOTIF-09',
    kind: 'value',
    description:
      "A since's offset is read to the hour: +05:45 as +05:00, starting the feed 45 minutes early.",
    apply: readAs((since) => (/[+-]\d\d:(?!00$)\d\d$/.test(since) ? `${since.slice(0, -2)}00` : undefined)),
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
];
