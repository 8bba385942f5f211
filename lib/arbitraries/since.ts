import fc from 'fast-check';
import { DAY, HOUR, iso } from '../time.ts';

/** A minute either side of each edge of the window is not asserted (clock skew, NOTIF-04). */
const MARGIN = 60_000;

/** A `since` inside the 90-day window before `now`. */
export function sinceInWindow(now: number): fc.Arbitrary<string> {
  return fc.integer({ min: now - 90 * DAY + MARGIN, max: now - MARGIN }).map(iso);
}

/** A `since` in the future. */
export function sinceInFuture(now: number): fc.Arbitrary<string> {
  return fc.integer({ min: now + MARGIN, max: Date.UTC(9999, 11, 31) }).map(iso);
}

/** A `since` older than 90 days. */
export function sinceTooOld(now: number): fc.Arbitrary<string> {
  return fc.integer({ min: Date.UTC(1, 0, 1), max: now - 90 * DAY - MARGIN }).map((ms) => iso(ms));
}

/** A valid RFC 3339 time inside the window, written with an offset other than `Z`. */
export function sinceWithOffset(now: number): fc.Arbitrary<string> {
  return fc
    .record({
      at: fc.integer({ min: now - 89 * DAY, max: now - DAY }),
      minutes: fc.integer({ min: -14 * 60, max: 14 * 60 }),
    })
    .filter(({ minutes }) => minutes !== 0)
    .map(({ at, minutes }) => {
      const local = new Date(at + minutes * 60_000).toISOString().slice(0, 23);
      const sign = minutes < 0 ? '-' : '+';
      const abs = Math.abs(minutes);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${local}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
    });
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Text that is not an RFC 3339 timestamp, as a client might send by mistake: arbitrary strings,
 * numbers, a date alone, a time without zone, fields out of range, other separators. `isValid` is
 * the contract's own `date-time` check, so nothing valid slips in.
 */
export function notRfc3339(now: number, isValid: (value: string) => boolean): fc.Arbitrary<string> {
  const day = new Date(now - 10 * DAY);
  const [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
  const date = `${y}-${pad(m)}-${pad(d)}`;
  const badFields = fc.constantFrom(
    `${y}-13-${pad(d)}T10:00:00.000Z`,
    `${y}-${pad(m)}-32T10:00:00.000Z`,
    `${y}-02-30T10:00:00.000Z`,
    `${date}T24:00:00.000Z`,
    `${date}T10:60:00.000Z`,
    `${date}T10:00:61.000Z`,
    `${date}T10:00:00.000+25:00`,
  );
  return fc
    .oneof(
      fc.string(),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.integer().map(String),
      fc.double().map(String),
      fc.integer({ min: now - 89 * DAY, max: now }).map(String),
      fc.constant(date),
      fc.integer({ min: 0, max: 30 }).map((back) => iso(now - back * DAY).slice(0, 19)),
      fc.integer({ min: 0, max: 30 }).map((back) => iso(now - back * DAY).replace('T', ' ')),
      fc.integer({ min: 0, max: 30 }).map((back) => new Date(now - back * DAY).toUTCString()),
      badFields,
    )
    .filter((value) => value !== '' && !isValid(value));
}

/**
 * The known-bad forms of `since`, sent on every run before the random cases: a date alone, no
 * zone, a space for `T`, an offset without its colon, a bare number, words, a week date.
 */
export function knownNotRfc3339(now: number, isValid: (value: string) => boolean): string[] {
  const at = iso(now - 10 * DAY);
  return [
    at.slice(0, 10),
    at.slice(0, 19),
    at.slice(0, 23),
    at.replace('T', ' '),
    `${at.slice(0, 23)}+0100`,
    `${at.slice(0, 19)}+01`,
    String(now - 10 * DAY),
    'yesterday',
    'now',
    `${at.slice(0, 4)}-W01`,
    new Date(now - 10 * DAY).toUTCString(),
  ].filter((value) => !isValid(value));
}

/** The edges of the window that every run sends: just inside, far inside, and past each edge. */
export function knownSince(now: number): { inWindow: string[]; future: string[]; tooOld: string[] } {
  return {
    inWindow: [iso(now - HOUR), iso(now - DAY), iso(now - 89 * DAY)],
    future: [iso(now + HOUR), iso(now + DAY), iso(Date.UTC(9999, 11, 31))],
    tooOld: [iso(now - 90 * DAY - 2 * HOUR), iso(now - 365 * DAY), iso(0)],
  };
}

/** One way to write a valid `since`, and the name of that way. */
export interface SinceForm {
  form: string;
  value: string;
}

/**
 * Valid RFC 3339 forms of a time inside the window that no example shows: other precisions than
 * milliseconds (none to nanoseconds), a lower-case `t` and `z` (RFC 3339 §5.6), and the zero offset
 * written `+00:00` or `-00:00`. Each names its form, so a refusal says which.
 */
export function sinceForms(now: number): fc.Arbitrary<SinceForm> {
  return fc
    .record({
      at: fc.integer({ min: now - 89 * DAY, max: now - 10 * MARGIN }),
      digits: fc.constantFrom(0, 1, 2, 3, 6, 9),
      lower: fc.boolean(),
      zone: fc.constantFrom('Z', '+00:00', '-00:00'),
    })
    .map(({ at, digits, lower, zone }) => {
      const [date, time] = iso(at).slice(0, 19).split('T') as [string, string];
      const fraction = digits === 0 ? '' : `.${iso(at).slice(20, 23).padEnd(digits, '0').slice(0, digits)}`;
      const z = zone === 'Z' && lower ? 'z' : zone;
      const value = `${date}${lower ? 't' : 'T'}${time}${fraction}${z}`;
      const parts = [
        digits === 3 ? undefined : `${digits}-digit-fraction`,
        lower ? 'lower-case' : undefined,
        zone === 'Z' ? undefined : `offset${zone}`,
      ].filter(Boolean);
      return { form: parts.join('+') || 'milliseconds', value };
    });
}
