/*
 * The breaking-change gate against a corpus of small cases, one change each (see
 * spec-diff-cases.ts). The gate may report more warnings and infos than a case expects, never
 * another error.
 */
import { expect, test } from '@playwright/test';
import { compareContracts, RULES } from '../../lib/spec-diff/index.ts';
import { loadCases } from './spec-diff-cases.ts';

const cases = loadCases();
const ruleIds = new Set<string>(RULES.map((r) => r.id));

test.describe.configure({ mode: 'parallel' });

test.describe('the breaking-change gate against its corpus', () => {
  test('the corpus holds at least 150 cases, in 3.0 and 3.1, recursive and external', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.version))).toEqual(new Set(['3.0', '3.1']));
    expect(cases.filter((c) => c.name.startsWith('recursive/')).length).toBeGreaterThanOrEqual(3);
    expect(cases.filter((c) => c.external).length).toBeGreaterThanOrEqual(3);
  });

  for (const c of cases)
    test(`${c.name}: ${c.description}`, () => {
      const changes = compareContracts(...c.documents());
      const reported = changes.map((x) => `${x.level} ${x.id} at ${x.pointer}: ${x.text}`).join('\n');
      const expected = Object.entries(c.expect);
      if (expected.length === 0) expect(reported, 'no change at all').toBe('');
      for (const [id, level] of expected) {
        expect.soft(ruleIds.has(id), `${id} is a rule of the table`).toBe(true);
        const levels = changes.filter((x) => x.id === id).map((x) => x.level);
        expect.soft(levels, `${id} reported as ${level}; reported:\n${reported}`).toContain(level);
      }
      const unexpected = changes.filter((x) => x.level === 'error' && !Object.hasOwn(c.expect, x.id));
      expect(
        unexpected.map((x) => x.id),
        `no error that is not expected; reported:\n${reported}`,
      ).toEqual([]);
    });
});
