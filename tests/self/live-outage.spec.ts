import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { liveEnvFor } from '../../mock/live-env.ts';
import { createMock } from '../../mock/server.ts';
import { runLive } from './support/nested-run.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/** A few tests of the suite, quick to run: the licence and the trial exclusions. */
const SOME = ['tests/conformance/licence.spec.ts', 'tests/conformance/trial-exclusions.spec.ts'];

interface Results {
  suites: Suite[];
}
interface Suite {
  suites?: Suite[];
  specs?: { title: string; tests: { results: { status: string; retry: number }[] }[] }[];
}

/** Each test's attempts, by title: the statuses of its results in order. */
function attempts(results: Results): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (suite: Suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        found.set(
          spec.title,
          t.results.map((r) => r.status),
        );
    for (const inner of suite.suites ?? []) walk(inner);
  };
  results.suites.forEach(walk);
  return found;
}

test.describe('a live run that meets an outage longer than it waits @HTTP-04', () => {
  test.setTimeout(120_000);

  test('runs what the outage stopped again at the end of the run: nothing fails or is not run, the outage reported', async () => {
    // The backend restarts after a few requests for two seconds; the run waits one out for one.
    const mock = await createMock({ seed: 1, as: 'ft-gateway', outage: { after: 12, seconds: 2 } });
    const dir = scratchFolder('live-outage');
    try {
      const run = await runLive({
        dir,
        args: SOME,
        env: { ...liveEnvFor(mock), CLM_RATE_LIMIT: '1000', CLM_OUTAGE_WAIT: '1' },
        timeoutMs: 100_000,
      });
      const reports = join(dir, 'reports');
      const written = ['partial', '.']
        .map((d) => join(reports, d))
        .find((d) => {
          try {
            readFileSync(join(d, 'conformance.json'));
            return true;
          } catch {
            return false;
          }
        })!;
      const report = JSON.parse(readFileSync(join(written, 'conformance.json'), 'utf8')) as {
        incomplete: string[];
        rows: { verdict: string }[];
        outages: { waitedOut: boolean }[];
      };
      // A part of the suite is incomplete by its nature, for that reason alone: nothing is not run.
      expect(run.status, run.stdout.slice(-3000)).toBe(0);
      expect(report.incomplete).toEqual([expect.stringMatching(/^a partial run/)]);
      expect(report.rows.filter((r) => r.verdict === 'fail' || r.verdict === 'not run')).toEqual([]);
      // Some request gave up on the outage: its test was stopped, then ran again and passed.
      expect(
        report.outages.some((o) => !o.waitedOut),
        JSON.stringify(report.outages),
      ).toBe(true);
      const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results;
      const again = [...attempts(results).entries()].filter(([, statuses]) => statuses.length > 1);
      expect(again.length, 'tests run again at the end').toBeGreaterThan(0);
      for (const [title, statuses] of again) expect(statuses, title).toEqual(['failed', 'passed']);
    } finally {
      await mock.close();
    }
  });

  test('runs nothing else again: a failure that is no outage stands, its retry no run of it', async () => {
    const mock = await createMock({ seed: 1, faults: ['trial-exclusions-as-objects'] });
    const dir = scratchFolder('live-outage');
    try {
      const run = await runLive({
        dir,
        args: ['tests/conformance/trial-exclusions.spec.ts', '-g', '@TE-01'],
        env: { ...liveEnvFor(mock), CLM_RATE_LIMIT: '1000' },
        timeoutMs: 100_000,
      });
      expect(run.status, run.stdout.slice(-3000)).toBe(1);
      const report = JSON.parse(
        readFileSync(join(dir, 'reports', 'partial', 'conformance.json'), 'utf8'),
      ) as { verdict: string; rows: { rule: { id: string }; verdict: string }[] };
      expect(report.verdict).toBe('fail');
      expect(report.rows.find((r) => r.rule.id === 'TE-01')?.verdict).toBe('fail');
    } finally {
      await mock.close();
    }
  });
});
