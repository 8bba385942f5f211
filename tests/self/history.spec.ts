import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Rule } from '../../lib/contract/index.ts';
import {
  appendHistory,
  HISTORY_FILE,
  readHistory,
  recordOf,
  regressions,
  type HistoryRecord,
} from '../../lib/report/history.ts';
import type { ConformanceReport } from '../../lib/report/model.ts';
import { day, run, series, tmp, tsx } from './support/history-runs.ts';

const ids = (trends: { rule: string }[]) => trends.map((t) => t.rule);

const rule = (id: string): Rule => ({ id, group: 'g', level: 'must', text: '', where: [], operations: [] });
/** A report of a run for the history to keep. */
const report = (partial: string[], incomplete: string[]): ConformanceReport => ({
  verdict: 'fail',
  deprecations: [],
  exploration: [],
  target: 'mock',
  seed: '42',
  generatedAt: day(1),
  run: {
    target: 'the bundled mock, one per worker (2)',
    faults: ['page-of-201', 'key-echoed'],
    seed: '42',
    suite: { version: '0.1.0', commit: 'deadbeef' },
    contract: { version: '1.0.0', hash: 'a1b2c3' },
    requests: 17,
    budget: null,
    perSecond: null,
    transportFailures: [],
  },
  coverage: { documented: [], undocumented: [], ratio: 0 },
  retries: [],
  outages: [],
  meta: {
    targetKind: 'mock',
    baseUrl: 'https://127.0.0.1:8443',
    target: 'the bundled mock, one per worker (2)',
    suiteVersion: '0.1.0',
    suiteCommit: 'deadbeef',
    contract: { version: '1.0.0', hash: 'a1b2c3' },
    faults: ['page-of-201', 'key-echoed'],
    seed: '42',
    startedAt: day(0),
    endedAt: day(1),
    partial,
    tests: { run: 2, total: 2 },
  },
  findings: [
    {
      id: 'F1',
      title: 'A page of 201',
      rules: ['NOTIF-07'],
      blocked: [],
      tests: ['t'],
      replay: 'r',
      location: 'l',
      reportLink: 'h',
    },
  ],
  latency: [{ operation: 'listNotifications', count: 2, p50: 10, p95: 20 }],
  incomplete,
  rows: [
    { rule: rule('NOTIF-07'), verdict: 'fail', tests: [], reasons: [], blockedBy: [] },
    { rule: rule('AUTH-01'), verdict: 'pass', tests: [], reasons: [], blockedBy: [] },
  ],
  drift: [{ operation: 'listNotifications', status: 200, field: 'extra', count: 3 }],
  requests: 17,
});

test.describe('a run as the history keeps it', () => {
  test('is compact: when it ended, what it ran against, each rule verdict, findings, drift and latency', () => {
    expect(recordOf(report([], []))).toEqual({
      at: day(1),
      commit: 'deadbeef',
      targetKind: 'mock',
      baseUrl: 'https://127.0.0.1:8443',
      target: 'the bundled mock, one per worker (2)',
      contract: 'a1b2c3',
      faults: ['key-echoed', 'page-of-201'],
      verdict: 'fail',
      rules: { 'NOTIF-07': 'fail', 'AUTH-01': 'pass' },
      findings: [{ id: 'F1', title: 'A page of 201', rules: ['NOTIF-07'] }],
      drift: ['listNotifications 200 extra'],
      latency: [{ operation: 'listNotifications', count: 2, p50: 10, p95: 20 }],
      requests: 17,
      complete: true,
    });
  });

  test('is not complete when the run was partial or stopped early', () => {
    expect(recordOf(report(['shard 1 of 4'], [])).complete).toBe(false);
    expect(recordOf(report([], ['budget spent'])).complete).toBe(false);
  });
});

test.describe('the history file', () => {
  test('gains one line per run in a folder it creates, and reads back in time order', () => {
    const file = join(tmp(), 'deep', 'reports', HISTORY_FILE);
    appendHistory(file, run(2, { 'NOTIF-07': 'pass' }));
    appendHistory(file, run(0, { 'NOTIF-07': 'fail' }));
    appendHistory(file, run(1, { 'NOTIF-07': 'pass' }));
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    const history = readHistory(file);
    expect(history.map((r) => r.at)).toEqual([day(0), day(1), day(2)]);
    expect(history[0]).toEqual(run(0, { 'NOTIF-07': 'fail' }));
    expect(history.malformed).toBe(0);
  });

  test('skips and counts malformed lines, and a torn last line does not swallow the next run', () => {
    const file = join(tmp(), HISTORY_FILE);
    appendHistory(file, run(0, { 'NOTIF-07': 'pass' }));
    appendFileSync(file, 'not json\n[1,2]\n{"at":"yesterday","targetKind":"live"}\n{"at":"2025-01-0');
    appendHistory(file, run(1, { 'NOTIF-07': 'fail' }));
    const history = readHistory(file);
    expect(history.map((r) => r.at)).toEqual([day(0), day(1)]);
    expect(history.malformed).toBe(4);
  });

  test('with no file yet, is empty', () => {
    const history = readHistory(join(tmp(), 'none.jsonl'));
    expect([...history]).toEqual([]);
    expect(history.malformed).toBe(0);
  });
});

test.describe('the regression gate', () => {
  test('a rule that passed in each of the last runs and fails now regressed, with its findings', () => {
    const gate = regressions(series('pass', 'pass', 'pass', 'fail'));
    expect(ids(gate.regressed)).toEqual(['NOTIF-07']);
    expect(gate.regressed[0]!.findings).toEqual(['A page of 201 changes']);
    expect(gate.regressed[0]!.verdicts).toEqual(['pass', 'pass', 'pass', 'fail']);
    expect(gate.compared).toHaveLength(3);
  });

  test('a rule blocked by a rule failing in the same run is listed as blocked: only its blocker regressed', () => {
    const both = (v: 'pass' | 'blocked', blocker: 'pass' | 'fail') => ({
      'NOTIF-09': v,
      'NOTIF-07': blocker,
    });
    const before = [0, 1, 2].map((i) => run(i, both('pass', 'pass')));
    const gate = regressions([
      ...before,
      run(3, both('blocked', 'fail'), { blockedBy: { 'NOTIF-09': ['NOTIF-07'] } }),
    ]);
    expect(ids(gate.regressed)).toEqual(['NOTIF-07']);
    expect(ids(gate.blocked)).toEqual(['NOTIF-09']);
    expect(ids(gate.notRun)).toEqual([]);
  });

  test('a rule not passing in one of the runs compared did not regress', () => {
    expect(ids(regressions(series('pass', 'skipped', 'pass', 'fail')).regressed)).toEqual([]);
    expect(ids(regressions(series('fail', 'fail')).regressed)).toEqual([]);
  });

  test('the window sets how many runs before the newest count, at least one', () => {
    const history = series('fail', 'pass', 'pass', 'fail');
    expect(ids(regressions(history, { window: 3 }).regressed)).toEqual([]);
    expect(ids(regressions(history, { window: 2 }).regressed)).toEqual(['NOTIF-07']);
    expect(regressions(history, { window: 0 }).compared).toHaveLength(1);
    // A shorter history compares what there is.
    expect(ids(regressions(series('pass', 'fail'), { window: 5 }).regressed)).toEqual(['NOTIF-07']);
  });

  test('a rule flipping between pass and fail twice is flaky: listed, not regressed', () => {
    const gate = regressions(series('pass', 'fail', 'pass', 'fail'));
    expect(ids(gate.flaky)).toEqual(['NOTIF-07']);
    expect(gate.regressed).toEqual([]);
    const twice = regressions(series('pass', 'fail', 'pass'));
    expect([ids(twice.flaky), ids(twice.fixed)]).toEqual([['NOTIF-07'], []]);
    // A flip older than the window does not count.
    expect(ids(regressions(series('fail', 'pass', 'pass', 'pass', 'fail')).flaky)).toEqual([]);
  });

  test('a rule failing in the run before and passing now is fixed', () => {
    expect(ids(regressions(series('fail', 'fail', 'pass')).fixed)).toEqual(['NOTIF-07']);
    expect(ids(regressions(series('pass', 'pass', 'pass')).fixed)).toEqual([]);
    expect(ids(regressions(series('pass', 'skipped', 'pass')).fixed)).toEqual([]);
  });

  test('compares only runs of the newest run’s base URL, kind and faults', () => {
    const other = { baseUrl: 'https://staging.example.com' };
    const history = [
      run(0, { 'NOTIF-07': 'pass' }),
      run(1, { 'NOTIF-07': 'fail' }, other),
      run(2, { 'NOTIF-07': 'fail' }, { faults: ['page-of-201'] }),
      run(3, { 'NOTIF-07': 'pass' }, { targetKind: 'mock' }),
      run(4, { 'NOTIF-07': 'fail' }),
    ];
    const gate = regressions(history);
    expect(gate.compared.map((r) => r.at)).toEqual([day(0)]);
    expect(ids(gate.regressed)).toEqual(['NOTIF-07']);
    const alone = regressions([...history, run(5, { 'NOTIF-07': 'fail' }, other)]);
    expect(alone.compared.map((r) => r.at)).toEqual([day(1)]);
    expect(alone.regressed).toEqual([]);
    expect(regressions([]).newest).toBeUndefined();
  });
});

test.describe('npm run conformance:regressions', () => {
  test.setTimeout(60_000);
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => tsx('regressions', args, env);
  const historyOf = (runs: HistoryRecord[]) => {
    const dir = tmp();
    for (const r of runs) appendHistory(join(dir, HISTORY_FILE), r);
    return { dir, file: join(dir, HISTORY_FILE) };
  };

  test('exits 1 on a regression, naming the rule and the finding', () => {
    const result = cli(['--history', historyOf(series('pass', 'pass', 'fail')).file]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('regressed NOTIF-07 (was pass): A page of 201 changes');
  });

  test('reads the history in CLM_REPORTS_DIR by default', () => {
    const { dir } = historyOf(series('pass', 'fail'));
    expect(cli([], { CLM_REPORTS_DIR: dir }).status).toBe(1);
    expect(cli([], { CLM_REPORTS_DIR: tmp() }).stdout).toContain('No runs');
  });

  test('exits 0 with flaky rules listed, with one run, and with no history', () => {
    const flaky = cli(['--history', historyOf(series('pass', 'fail', 'pass', 'fail')).file]);
    expect(flaky.status).toBe(0);
    expect(flaky.stdout).toContain('flaky     NOTIF-07 (pass, fail, pass, fail)');
    const one = cli(['--history', historyOf(series('fail')).file]);
    expect([one.status, one.stdout.includes('nothing to compare with yet')]).toEqual([0, true]);
    const none = cli(['--history', join(tmp(), 'missing.jsonl')]);
    expect([none.status, none.stdout.includes('No runs')]).toEqual([0, true]);
  });

  test('exits 2 on bad arguments, 0 on --help', () => {
    expect(cli(['--window', '0']).status).toBe(2);
    expect(cli(['--window', 'three']).status).toBe(2);
    expect(cli(['--nonsense']).status).toBe(2);
    expect(cli(['one.json']).status).toBe(2);
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run conformance:regressions/);
  });
});
