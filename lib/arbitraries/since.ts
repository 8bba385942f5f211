import fc from 'fast-check';
import { anyCodePoint } from './values.ts';
import { DAY, HOUR, iso } from '../time.ts';
import { SKEW, windowStart } from './since-window.ts';

export { SINCE_WINDOW, SKEW, wellInside, windowStart } from './since-window.ts';
// The exploration draws its date-time values here.
export { sinceForms, type SinceForm } from './since-forms.ts';

/** A `since` inside the 90-day window before `now`. */
export function sinceInWindow(now: number): fc.Arbitrary<string> {
  return fc.integer({ min: windowStart(now) + SKEW, max: now - SKEW }).map(iso);
}

/** A `since` in the future. */
export function sinceInFuture(now: number): fc.Arbitrary<string> {
  return fc.integer({ min: now + SKEW, max: Date.UTC(9999, 11, 31) }).map(iso);
}

/** A `since` older than 90 days. */
export function sinceTooOld(now: number): fc.Arbitrary<string> {
  return fc.integer({ min: Date.UTC(1, 0, 1), max: windowStart(now) - SKEW }).map((ms) => iso(ms));
}

/** The edges of the window that every run sends: just inside, far inside, and past each edge. */
export function knownSince(now: number): { inWindow: string[]; future: string[]; tooOld: string[] } {
  return {
    inWindow: [iso(now - HOUR), iso(now - DAY), iso(windowStart(now) + DAY)],
    future: [iso(now + HOUR), iso(now + DAY), iso(Date.UTC(9999, 11, 31))],
    tooOld: [iso(windowStart(now) - 2 * HOUR), iso(now - 365 * DAY), iso(0)],
  };
}

/**
 * Text that is not an RFC 3339 timestamp, drawn at random: arbitrary strings of every unit,
 * numbers, a date alone, a time without zone, a date as HTTP writes it. The named near-misses
 * (ISO 8601's other forms, fields out of range) are the coverage list of `since-forms.ts`. `isValid`
 * is the contract's own `date-time` check, so nothing valid slips in; a space for `T` and a leap
 * second are left out, as the application decides them (`decidedSince`).
 */
export function notRfc3339(now: number, isValid: (value: string) => boolean): fc.Arbitrary<string> {
  const recent = fc.integer({ min: 0, max: 30 }).map((back) => now - back * DAY);
  return fc
    .oneof(
      fc.string(),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: anyCodePoint, maxLength: 40 }),
      fc.integer().map(String),
      fc.double().map(String),
      fc.integer({ min: windowStart(now) + DAY, max: now }).map(String),
      recent.map((at) => iso(at).slice(0, 10)),
      recent.map((at) => iso(at).slice(0, 19)),
      recent.map((at) => new Date(at).toUTCString()),
    )
    .filter((value) => value !== '' && !isValid(value) && !/^\d{4}-\d\d-\d\d \d/.test(value));
}
