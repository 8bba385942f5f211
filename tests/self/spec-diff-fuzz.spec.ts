/*
 * The gate on contract changes, fuzzed: edits of the project's contract drawn by fast-check (every
 * keyword of JSON Schema 2020-12 and OpenAPI 3.1 at every place a schema stands, and the
 * operations around them), each valid. The gate never throws on one, every change names a rule
 * of the table, and its levels agree with the values the oracle draws from both sides.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { projectPath } from '../../lib/paths.ts';
import { loadFuzzContract, type FuzzContract } from '../../lib/spec-diff/fuzz/contract.ts';
import { applyEdit, baseOf, editArbitrary } from '../../lib/spec-diff/fuzz/edits.ts';
import { reasonOf, tally } from '../../lib/spec-diff/fuzz/oracle.ts';
import { fuzz } from '../../lib/spec-diff/fuzz/run.ts';
import { tsxArgs } from './support/commands.ts';
import { scratchFolder } from '../../lib/scratch.ts';

// Deterministic: the project's FC_SEED is new each run, and a disagreement class met once in many
// seeds must not fail a run that changed nothing; GATE_FUZZ_SEED replays another.
const SEED = Number(process.env.GATE_FUZZ_SEED ?? 37);
const EDITS = 300;
/** The least agreement measured over seeds (0.90 to 0.95 on 300 edits), with room for a seed's spread. */
const AGREEMENT = 0.85;

let contract: FuzzContract;
test.beforeAll(async () => {
  contract = await loadFuzzContract();
});

test.describe('the gate on contract changes, fuzzed', () => {
  test(`${EDITS} edits (seed ${SEED}): no throw, every change a rule, levels proven by values`, () => {
    test.setTimeout(60_000);
    const report = fuzz(contract, EDITS, SEED);
    expect(report.throws.map((t) => `${t.edit.label}: ${t.message}`)).toEqual([]);
    const result = tally(report.judged);
    const unexplained = [...result.classes.keys()].filter((k) => !reasonOf(k));
    const shown = unexplained.map((k) => `${k}: ${JSON.stringify(report.examples.get(k))}`);
    expect(shown, 'every disagreement class has a written reason (oracle.ts)').toEqual([]);
    expect(
      result.agreement,
      JSON.stringify({ ...result, classes: [...result.classes] }),
    ).toBeGreaterThanOrEqual(AGREEMENT);
    expect(result.agree).toBeGreaterThan(EDITS);
  });

  test('a handful of edits through the command line exit 0 or 1, never 2', () => {
    test.setTimeout(120_000);
    const dir = scratchFolder('gate-fuzz');
    const edits = fc.sample(editArbitrary(contract), { numRuns: 4, seed: SEED });
    for (const [i, edit] of edits.entries()) {
      const base = baseOf(contract, edit);
      const [a, b] = [join(dir, `base-${i}.json`), join(dir, `revision-${i}.json`)];
      writeFileSync(a, JSON.stringify(base));
      writeFileSync(b, JSON.stringify(applyEdit(base, edit)));
      const run = spawnSync(process.execPath, tsxArgs(projectPath('scripts/spec-diff.ts'), [a, b]), {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect([0, 1], `${edit.label}: ${run.stderr}`).toContain(run.status);
    }
  });
});
