import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadContract, loadRules } from '../../lib/contract/index.ts';
import { EXIT, exitCodeOf } from '../../lib/report/exit-code.ts';
import { buildReport, unfinished, type ConformanceReport, type TestRecord } from '../../lib/report/model.ts';
import { META } from './support/report-meta.ts';
import { tsxArgs } from './support/commands.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const passed: TestRecord = { id: 'p', title: 'p', file: 'f', rules: ['TE-01'], outcome: 'passed' };
const failed: TestRecord = { id: 'f', title: 'f', file: 'f', rules: ['LIC-01'], outcome: 'failed' };
const notRun = (id: string, why: string): TestRecord => ({
  id,
  title: id,
  file: 'f',
  rules: ['AUTH-01'],
  outcome: 'not run',
  skipReason: `not run: ${why}`,
});
const THROTTLED = 'the service asked to wait 3600 s (429, Retry-After), more than CLM_MAX_RETRY_AFTER=60';

async function reportOf(
  records: TestRecord[],
  options: { partial?: string[]; stopped?: string } = {},
): Promise<ConformanceReport> {
  return buildReport(records, loadRules(), await loadContract(), {
    target: 'live',
    seed: '1',
    meta: { ...META, partial: options.partial ?? [] },
    ...(options.stopped
      ? {
          run: { requests: 1, budget: 600, perSecond: 0.5, stopped: options.stopped, transportFailures: [] },
        }
      : {}),
  });
}

test.describe('the exit code a verdict stands for', () => {
  test('0 for a pass, 1 for a failure, 3 for a run that stopped short', async () => {
    expect(exitCodeOf(await reportOf([passed]))).toBe(EXIT.pass);
    expect(exitCodeOf(await reportOf([passed, failed, notRun('n', THROTTLED)]))).toBe(EXIT.fail);
    const stopped = await reportOf([passed, notRun('n', THROTTLED)], { stopped: THROTTLED });
    expect([stopped.verdict, exitCodeOf(stopped)]).toEqual(['incomplete', EXIT.incomplete]);
    expect(EXIT.incomplete).toBe(3);
  });

  test('a partial run that ran all it selected is 0; one that also stopped is 3', async () => {
    const partial = await reportOf([passed], { partial: ['shard 2 of 4'] });
    expect([partial.verdict, unfinished(partial), exitCodeOf(partial)]).toEqual(['incomplete', [], 0]);
    const stopped = await reportOf([passed, notRun('n', THROTTLED)], {
      partial: ['shard 2 of 4'],
      stopped: THROTTLED,
    });
    expect(unfinished(stopped)).toEqual([THROTTLED, '1 test(s) not run']);
    expect(exitCodeOf(stopped)).toBe(EXIT.incomplete);
  });

  test('merged shards, with no ledger, name why their tests were not run, once each', async () => {
    const tests = [passed, notRun('a', THROTTLED), notRun('b', THROTTLED), notRun('c', 'deadline reached')];
    const merged = await reportOf(tests);
    expect(merged.incomplete).toEqual([`3 test(s) not run (${THROTTLED}; deadline reached)`]);
    const own = await reportOf(tests, { stopped: THROTTLED });
    expect(own.incomplete, 'the ledger reason is not said twice').toEqual([
      THROTTLED,
      '3 test(s) not run (deadline reached)',
    ]);
  });
});

test.describe('npm run conformance:verdict', () => {
  test.setTimeout(60_000);
  const verdict = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const dir = scratchFolder('verdict');
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const run = spawnSync(process.execPath, tsxArgs('scripts/verdict.ts', args), {
      encoding: 'utf8',
      env: { ...process.env, GITHUB_STEP_SUMMARY: summary, ...env },
    });
    return { ...run, summary: readFileSync(summary, 'utf8') };
  };
  const saved = (report: ConformanceReport) => {
    const dir = scratchFolder('verdict-report');
    writeFileSync(join(dir, 'conformance.json'), JSON.stringify(report));
    return dir;
  };

  test('exits 3 on an incomplete run and names the reason in the job summary', async () => {
    const dir = saved(await reportOf([passed, notRun('n', THROTTLED)]));
    const run = verdict([], { CLM_REPORTS_DIR: dir });
    expect(run.status, run.stderr).toBe(3);
    expect(run.summary).toContain('**Conformance verdict: INCOMPLETE, not passed.**');
    expect(run.summary).toContain(THROTTLED);
    expect(run.stdout).toContain('Exit code 3.');
  });

  test('exits 0 on a pass and on a partial run that ran all it selected, 1 on a failure', async () => {
    const pass = verdict([join(saved(await reportOf([passed])), 'conformance.json')]);
    expect([pass.status, pass.summary]).toEqual([0, expect.stringContaining('verdict: PASS.**')]);
    const partial = verdict([
      join(saved(await reportOf([passed], { partial: ['shard 1 of 4'] })), 'conformance.json'),
    ]);
    expect(partial.status).toBe(0);
    const fail = verdict([join(saved(await reportOf([passed, failed])), 'conformance.json')]);
    expect([fail.status, fail.summary]).toEqual([1, expect.stringContaining('verdict: FAIL.**')]);
  });

  test('exits 2 when there is no report to read, and says so in the summary', () => {
    const run = verdict([join(tmpdir(), 'no-such-report.json')]);
    expect(run.status).toBe(2);
    expect(run.summary).toContain('**Conformance verdict: none.**');
    expect(verdict(['a.json', 'b.json']).status).toBe(2);
  });
});
