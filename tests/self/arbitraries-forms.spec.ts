import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import {
  DECIDED_CLASSES,
  decidedSince,
  foreignToken,
  foreignTokenCoverage,
  ISO_8601_ONLY_CLASSES,
  iso8601OnlySince,
  notRfc3339,
  OUT_OF_RANGE_CLASSES,
  outOfRangeSince,
  parameterCheck,
  percentEncoded,
  sinceForm,
  sinceFormCoverage,
  TOKEN_CLASSES,
  VALID_FORM_CLASSES,
  withCoverage,
} from '../../lib/arbitraries/index.ts';
import { loadContract } from '../../lib/contract/index.ts';
import { DAY } from '../../lib/time.ts';
import { parseRfc3339 } from '../../mock/state/clock.ts';
import { decodePosition } from '../../mock/state/index.ts';

const contract = await loadContract();
const isDateTime = parameterCheck(contract, 'listNotifications', 'since');
const NOW = Date.UTC(2026, 10, 26, 11, 17, 40, 123);
const SECOND = Math.floor((NOW - 30 * DAY) / 1_000) * 1_000;

test.describe('the forms of since and page: coverage lists of every class, each run, whatever the seed', () => {
  test('the coverage list of valid forms holds every class, each valid and naming its instant', () => {
    const coverage = sinceFormCoverage(SECOND);
    expect(new Set(coverage.flatMap((f) => f.classes))).toEqual(new Set(VALID_FORM_CLASSES));
    for (const f of coverage) {
      expect(isDateTime(f.value), f.value).toBe(true);
      expect(parseRfc3339(f.value), f.value).toBe(f.instant);
      expect([SECOND, SECOND + 999], f.value).toContain(f.instant);
    }
  });

  test('random valid forms name the instant they were drawn for, cut to milliseconds', () => {
    const forms = fc.sample(sinceForm(fc.integer({ min: SECOND, max: NOW })), { seed: 7, numRuns: 300 });
    for (const f of forms) {
      expect(isDateTime(f.value), f.value).toBe(true);
      expect(parseRfc3339(f.value), f.value).toBe(f.instant);
    }
  });

  test('the near-misses hold every class, each refused by the contract and by RFC 3339', () => {
    const iso8601 = iso8601OnlySince(NOW);
    const outOfRange = outOfRangeSince(NOW);
    expect(iso8601.map((c) => c.form)).toEqual(ISO_8601_ONLY_CLASSES);
    expect(outOfRange.map((c) => c.form)).toEqual(OUT_OF_RANGE_CLASSES);
    // ajv-formats reads an offset's colon and minutes as optional: RFC 3339's grammar does not.
    const ajvAdmits = ['hour-only-offset', 'offset-without-colon'];
    for (const { form, value } of [...iso8601, ...outOfRange]) {
      expect(isDateTime(value), `${form}: ${value}`).toBe(ajvAdmits.includes(form));
      expect(parseRfc3339(value), `${form}: ${value}`).toBeUndefined();
    }
    expect(decidedSince(NOW).map((c) => c.form)).toEqual(DECIDED_CLASSES);
  });

  test('week and ordinal dates name the date ten days back, across a year with 53 weeks too', () => {
    const of = (now: number, form: string) => iso8601OnlySince(now).find((c) => c.form === form)!.value;
    expect(of(NOW, 'week-date')).toBe('2026-W47-1T10:15:00Z');
    expect(of(NOW, 'ordinal-date')).toBe('2026-320T10:15:00Z');
    // 1 January 2027 is a Friday of the 53rd week of 2026.
    const nextYear = Date.UTC(2027, 0, 11, 12);
    expect(of(nextYear, 'week-date')).toBe('2026-W53-5T10:15:00Z');
    expect(of(nextYear, 'ordinal-date')).toBe('2027-001T10:15:00Z');
  });

  test('the page token coverage holds every class; no token drawn is one the feed could give', () => {
    const coverage = foreignTokenCoverage();
    expect([...coverage.map((c) => c.form), 'percent-encoded']).toEqual(TOKEN_CLASSES);
    const drawn = fc.sample(foreignToken(), { seed: 7, numRuns: 500 });
    for (const token of [...coverage.map((c) => c.value), ...drawn])
      expect(decodePosition(token), JSON.stringify(token.slice(0, 40))).toBeUndefined();
    // The longest URL sent stays under the 8,000 octets RFC 9110 asks every recipient to take.
    const longest = Math.max(
      ...[...coverage.map((c) => c.value), ...drawn].map((t) => encodeURIComponent(t).length),
    );
    expect(longest).toBeLessThan(7_000);
    expect(percentEncoded('MTQ4')).toBe('%4D%54%51%34');
  });
});

test.describe('the forms of since and page: deterministic under a seed, every listed value sent however few the runs', () => {
  test('draws are the same under one seed and differ under another', () => {
    const arbitraries: fc.Arbitrary<unknown>[] = [
      sinceForm(fc.integer({ min: SECOND, max: NOW })),
      notRfc3339(NOW, isDateTime),
      foreignToken(),
    ];
    for (const arbitrary of arbitraries) {
      const draw = (seed: number) => fc.sample(arbitrary, { seed, numRuns: 30 });
      expect(draw(42)).toEqual(draw(42));
      expect(draw(42)).not.toEqual(draw(43));
    }
  });

  test('a coverage list is sent whole before the draws, even when the runs are fewer', async () => {
    const coverage = iso8601OnlySince(NOW).map((c) => c.value);
    const sent: string[] = [];
    await fc.assert(
      fc.asyncProperty(notRfc3339(NOW, isDateTime), async (since) => {
        sent.push(since);
        await Promise.resolve();
      }),
      withCoverage({ numRuns: 10, seed: 1 }, coverage, 2),
    );
    expect(sent.slice(0, coverage.length)).toEqual(coverage);
    expect(sent).toHaveLength(coverage.length + 2);
  });
});
