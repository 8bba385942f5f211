import fc from 'fast-check';
import { DAY, iso } from '../time.ts';
import { wellInside } from './since-window.ts';

/** A `since` as written, the instant it names, and the classes of form it stands for. */
export interface SinceForm {
  /** The way it is written, by what differs from the example's (`milliseconds` when nothing does). */
  form: string;
  value: string;
  /** The millisecond it names, its fraction cut to milliseconds: where the feed must start. */
  instant: number;
  classes: string[];
}

/** A `since` the feed must refuse, or whose answer the contract decides, with its one class. */
export interface SinceCase {
  form: string;
  value: string;
}

/**
 * Every way RFC 3339 §5.6 lets a timestamp be written (the coverage list holds each at least once):
 * a fraction of none to nine digits, `T` or `t`, `Z` or `z`, the zero offset as `+00:00` or as
 * `-00:00` (§4.3, "offset unknown": the same instant), offsets either side, one off the hour, and
 * the extremes in use (`-12:00`, `+14:00`).
 */
export const VALID_FORM_CLASSES: readonly string[] = [
  ...Array.from({ length: 10 }, (_, d) => `fraction-${d}`),
  'separator-T',
  'separator-t',
  'zone-Z',
  'zone-z',
  'offset+00:00',
  'offset-00:00',
  'offset-positive',
  'offset-negative',
  'offset-off-the-hour',
  'offset-12:00',
  'offset+14:00',
];

/** ISO 8601 forms RFC 3339 refuses, and other text a client may send by mistake: each gets 400. */
export const ISO_8601_ONLY_CLASSES: readonly string[] = [
  'basic-format',
  'comma-fraction',
  'week-date',
  'ordinal-date',
  'no-seconds',
  'no-offset',
  'hour-only-offset',
  'offset-without-colon',
  'date-only',
  'epoch-milliseconds',
  'http-date',
  'words',
];

/** Fields out of their range: each gets 400, never a time rolled over into range. */
export const OUT_OF_RANGE_CLASSES: readonly string[] = [
  'month-13',
  'day-32',
  'february-30',
  'hour-24',
  'hour-25',
  'minute-60',
  'second-61',
  'offset-hour-24',
  'offset-minute-60',
];

/**
 * Forms the interface does not settle, decided in `openapi/README.md`: a space for `T` (RFC 3339
 * §5.6's note lets an application accept it; its grammar does not) and a leap second (the grammar
 * allows `:60`; none has been inserted since 2016, so inside the window it names no instant). The
 * mock answers 400; live, 200 or 400, never a 5xx.
 */
export const DECIDED_CLASSES: readonly string[] = ['space-separator', 'leap-second'];

/** How a valid `since` is written. `zone`: `Z`, `z`, `-00:00`, or an offset in minutes. */
interface Shape {
  digits: number;
  /** Digits past the millisecond, for a fraction of more than three. */
  beyond: string;
  lowerT: boolean;
  zone: 'Z' | 'z' | '-00:00' | number;
}

const two = (n: number) => String(n).padStart(2, '0');

function zoneText(zone: Shape['zone']): string {
  if (typeof zone === 'string') return zone;
  const abs = Math.abs(zone);
  return `${zone < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

function classesOf({ digits, lowerT, zone }: Shape): string[] {
  const classes = [`fraction-${digits}`, lowerT ? 'separator-t' : 'separator-T'];
  if (zone === 'Z' || zone === 'z') return [...classes, `zone-${zone}`];
  const text = zoneText(zone);
  classes.push(text === '+00:00' || text === '-00:00' ? `offset${text}` : '');
  if (typeof zone === 'number' && zone !== 0) {
    classes.push(zone > 0 ? 'offset-positive' : 'offset-negative');
    if (zone % 60 !== 0) classes.push('offset-off-the-hour');
    if (text === '-12:00' || text === '+14:00') classes.push(`offset${text}`);
  }
  return classes.filter(Boolean);
}

/** The instant `at` written in `shape`, in the local time of its offset. */
function written(at: number, shape: Shape): SinceForm {
  const minutes = typeof shape.zone === 'number' ? shape.zone : 0;
  const local = iso(at + minutes * 60_000);
  const millis = local.slice(20, 23);
  const fraction =
    shape.digits === 0 ? '' : `.${`${millis}${shape.beyond}`.padEnd(9, '0').slice(0, shape.digits)}`;
  const zone = zoneText(shape.zone);
  const value = `${local.slice(0, 10)}${shape.lowerT ? 't' : 'T'}${local.slice(11, 19)}${fraction}${zone}`;
  const cut = shape.digits >= 3 ? 0 : Number(millis) % 10 ** (3 - shape.digits);
  const parts = [
    shape.digits === 3 ? '' : `${shape.digits}-digit-fraction`,
    shape.lowerT ? 'lower-t' : '',
    shape.zone === 'z' ? 'lower-z' : shape.zone === 'Z' ? '' : `offset${zone}`,
  ].filter(Boolean);
  return { form: parts.join('+') || 'milliseconds', value, instant: at - cut, classes: classesOf(shape) };
}

/** Any offset RFC 3339's grammar admits (hours 00–23), and the named ones every draw may meet. */
const zones: fc.Arbitrary<Shape['zone']> = fc.oneof(
  fc.constantFrom<Shape['zone']>('Z', 'z', '-00:00', 0, 345, -720, 840),
  fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
);

/** Valid RFC 3339 forms of the instants `instants` draws: any precision, case and zone. */
export function sinceForm(instants: fc.Arbitrary<number>): fc.Arbitrary<SinceForm> {
  return fc
    .record({
      at: instants,
      digits: fc.integer({ min: 0, max: 9 }),
      beyond: fc.stringMatching(/^\d{6}$/),
      lowerT: fc.boolean(),
      zone: zones,
    })
    .map(({ at, ...shape }) => written(at, shape));
}

/** Valid forms of a time well inside the window (the exploration's date-time values). */
export function sinceForms(now: number): fc.Arbitrary<SinceForm> {
  return sinceForm(fc.integer(wellInside(now)));
}

/**
 * The coverage list of valid forms: each class of `VALID_FORM_CLASSES` at least once, in ten
 * values. A fraction of up to two digits names the whole second `second`; one of three or more,
 * the last millisecond of it (`.999…`), so a fraction read wrongly moves the start far.
 */
export function sinceFormCoverage(second: number): SinceForm[] {
  const base = second - (second % 1_000);
  const shapes: Shape[] = [
    { digits: 0, beyond: '', lowerT: false, zone: 'Z' },
    { digits: 1, beyond: '', lowerT: true, zone: 'Z' },
    { digits: 2, beyond: '', lowerT: false, zone: 'z' },
    { digits: 3, beyond: '', lowerT: false, zone: 0 },
    { digits: 4, beyond: '999999', lowerT: false, zone: '-00:00' },
    { digits: 5, beyond: '999999', lowerT: true, zone: 345 },
    { digits: 6, beyond: '999999', lowerT: false, zone: -720 },
    { digits: 7, beyond: '999999', lowerT: false, zone: 840 },
    { digits: 8, beyond: '999999', lowerT: true, zone: 'z' },
    { digits: 9, beyond: '999999', lowerT: false, zone: 'Z' },
  ];
  return shapes.map((shape) => written(shape.digits < 3 ? base : base + 999, shape));
}

/** The date ten days before `now`, its fields, and its ISO week and ordinal day. */
function aDate(now: number) {
  const at = now - 10 * DAY;
  const date = iso(at).slice(0, 10);
  const [y, m, d] = date.split('-') as [string, string, string];
  const dayOfYear = (t: number, year: number) => Math.floor((t - Date.UTC(year, 0, 1)) / DAY) + 1;
  const weekday = ((new Date(at).getUTCDay() + 6) % 7) + 1;
  // ISO 8601: a week belongs to the year of its Thursday.
  const thursday = at + (4 - weekday) * DAY;
  const weekYear = new Date(thursday).getUTCFullYear();
  const week = Math.floor((dayOfYear(thursday, weekYear) - 1) / 7) + 1;
  const ordinal = String(dayOfYear(at, Number(y))).padStart(3, '0');
  return { at, date, y, m, d, week: `${weekYear}-W${two(week)}-${weekday}`, ordinal: `${y}-${ordinal}` };
}

/** One value of each class of `ISO_8601_ONLY_CLASSES`, ten days back: each gets 400. */
export function iso8601OnlySince(now: number): SinceCase[] {
  const { at, date, y, m, d, week, ordinal } = aDate(now);
  const values: Record<string, string> = {
    'basic-format': `${y}${m}${d}T101500Z`,
    'comma-fraction': `${date}T10:15:00,5Z`,
    'week-date': `${week}T10:15:00Z`,
    'ordinal-date': `${ordinal}T10:15:00Z`,
    'no-seconds': `${date}T10:15Z`,
    'no-offset': `${date}T10:15:00.000`,
    'hour-only-offset': `${date}T10:15:00+05`,
    'offset-without-colon': `${date}T10:15:00+0545`,
    'date-only': date,
    'epoch-milliseconds': String(at),
    'http-date': new Date(at).toUTCString(),
    words: 'yesterday',
  };
  return Object.entries(values).map(([form, value]) => ({ form, value }));
}

/** One value of each class of `OUT_OF_RANGE_CLASSES`, ten days back: each gets 400. */
export function outOfRangeSince(now: number): SinceCase[] {
  const { date, y, d } = aDate(now);
  const values: Record<string, string> = {
    'month-13': `${y}-13-${d}T10:00:00.000Z`,
    'day-32': `${date.slice(0, 8)}32T10:00:00.000Z`,
    'february-30': `${y}-02-30T10:00:00.000Z`,
    'hour-24': `${date}T24:00:00.000Z`,
    'hour-25': `${date}T25:00:00.000Z`,
    'minute-60': `${date}T10:60:00.000Z`,
    'second-61': `${date}T10:00:61.000Z`,
    'offset-hour-24': `${date}T10:00:00.000+24:00`,
    'offset-minute-60': `${date}T10:00:00.000+01:60`,
  };
  return Object.entries(values).map(([form, value]) => ({ form, value }));
}

/** One value of each class of `DECIDED_CLASSES`, ten days back. */
export function decidedSince(now: number): SinceCase[] {
  const { date } = aDate(now);
  return [
    { form: 'space-separator', value: `${date} 10:15:00.000Z` },
    { form: 'leap-second', value: `${date}T23:59:60Z` },
  ];
}
