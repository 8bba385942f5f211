import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runPlaywright } from './support/nested-run.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/**
 * A run of a few tests writes its reports as partial (reports/partial). A fault that breaks one rule, met by a test of another rule that needs the first (its walk, its
 * image): in a conformance run, the fault's rule is red and the other rule reads "blocked by" it,
 * not failed, because the test's assertion on what it needs says whose it is (`says`).
 */
interface Case {
  fault: string;
  /** The conformance test run (a `-g` pattern of its title) and the rule it is titled with. */
  grep: string;
  own: string;
  /** The rule the fault breaks: red, and blocking `own`. */
  red: string;
}

const CASES: Case[] = [
  // Next links that restart from since: the walk a test of NOTIF-10 needs is NOTIF-09's.
  { fault: 'page-ignored', grep: 'more can follow a short page', own: 'NOTIF-10', red: 'NOTIF-09' },
  // format=gif refused: the image a test of IMG-01 asks with that format is IMG-02's to serve.
  { fault: 'gif-format-refused', grep: 'raw returns bytes of the format', own: 'IMG-01', red: 'IMG-02' },
  // since missing answered 200: the 400 whose body a test of NOTIF-14 reads is NOTIF-01's.
  { fault: 'since-optional', grep: 'a 400 says what was wrong', own: 'NOTIF-14', red: 'NOTIF-01' },
];

interface Row {
  rule: { id: string };
  verdict: string;
  blockedBy: string[];
}

test.describe('a test stopped by another rule is blocked by it, in a conformance run', () => {
  for (const { fault, grep, own, red } of CASES)
    test(`${fault}: ${red} red, ${own} blocked by it`, async () => {
      test.setTimeout(120_000);
      const dir = scratchFolder(`blocked-${fault}`);
      const run = await runPlaywright('mock', {
        dir,
        args: ['-g', grep, '--workers=1'],
        env: { MOCK_FAULTS: fault },
      });
      const report = JSON.parse(
        readFileSync(join(dir, 'reports', 'partial', 'conformance.json'), 'utf8'),
      ) as {
        rows: Row[];
      };
      const row = (id: string) => report.rows.find((r) => r.rule.id === id);
      const shown = `${run.stdout.slice(-2000)}\n${JSON.stringify(report.rows.filter((r) => r.verdict !== 'not covered'))}`;
      expect(run.status, shown).not.toBe(0);
      expect(row(own), shown).toMatchObject({ verdict: 'blocked', blockedBy: [red] });
      expect(
        report.rows.filter((r) => r.verdict === 'fail').map((r) => r.rule.id),
        shown,
      ).toEqual([red]);
    });
});
