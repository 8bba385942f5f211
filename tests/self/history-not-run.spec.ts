import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { appendHistory, HISTORY_FILE, regressions, type HistoryRecord } from '../../lib/report/history.ts';
import type { Verdict } from '../../lib/report/model.ts';
import { trendHtml } from '../../lib/report/trend.ts';
import { tsxArgs } from './support/commands.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/** A night of the live run, day `i`, with the given rule verdicts. */
function night(i: number, rules: Record<string, Verdict>): HistoryRecord {
  const verdicts = Object.values(rules);
  return {
    at: new Date(Date.UTC(2025, 0, 1 + i, 2, 40)).toISOString(),
    commit: 'abc123',
    targetKind: 'live',
    baseUrl: 'https://api.example.com',
    contract: 'c0ffee',
    faults: [],
    verdict: verdicts.includes('fail') ? 'fail' : verdicts.includes('not run') ? 'incomplete' : 'pass',
    rules,
    findings: [],
    drift: [],
    latency: [],
    requests: 50,
    complete: !verdicts.includes('not run'),
  };
}

/** Nights of two rules: NOTIF-07's verdicts as given, AUTH-01 passing throughout. */
const nights = (...notif: Verdict[]) => notif.map((v, i) => night(i, { 'NOTIF-07': v, 'AUTH-01': 'pass' }));
const ids = (trends: { rule: string }[]) => trends.map((t) => t.rule);

test.describe('the regression gate, for a rule that did not run tonight', () => {
  test('a rule that passed on each of the last nights and was not run tonight is listed as not run', () => {
    for (const tonight of ['not run', 'skipped', 'not covered'] as const) {
      const gate = regressions(nights('pass', 'pass', 'pass', tonight));
      expect(ids(gate.notRun), tonight).toEqual(['NOTIF-07']);
      expect(gate.notRun[0]!.verdicts).toEqual(['pass', 'pass', 'pass', tonight]);
      expect([gate.regressed, gate.flaky, gate.fixed]).toEqual([[], [], []]);
    }
  });

  test('a rule that had not passed every night before is not listed: an outage fails the gate once', () => {
    expect(regressions(nights('pass', 'fail', 'pass', 'not run')).notRun).toEqual([]);
    expect(regressions(nights('pass', 'pass', 'not run', 'not run')).notRun).toEqual([]);
    expect(regressions(nights('pass', 'pass', 'pass', 'pass')).notRun).toEqual([]);
    // Only the window counts: a failure four nights ago is forgotten.
    expect(ids(regressions(nights('fail', 'pass', 'pass', 'pass', 'not run')).notRun)).toEqual(['NOTIF-07']);
  });

  test('the trend page lists it beside the regressed rules', () => {
    const html = trendHtml(nights('pass', 'pass', 'pass', 'not run'));
    const summary = html.slice(html.indexOf('id="summary"'), html.indexOf('id="charts"'));
    expect(summary).toContain('0 regressed, 1 not run');
    expect(summary).toMatch(
      /id="not-run"><li><b>NOTIF-07<\/b> <span class="seq">pass → pass → pass → not run/,
    );
  });
});

test.describe('npm run conformance:regressions, for a rule that did not run tonight', () => {
  test.setTimeout(60_000);
  const gate = (runs: HistoryRecord[]) => {
    const file = join(scratchFolder('history'), HISTORY_FILE);
    for (const r of runs) appendHistory(file, r);
    return spawnSync(process.execPath, tsxArgs('scripts/regressions.ts', ['--history', file]), {
      encoding: 'utf8',
    });
  };

  test('exits 3, the code of an incomplete run, naming the rule', () => {
    const result = gate(nights('pass', 'pass', 'pass', 'not run'));
    expect(result.status, result.stderr).toBe(3);
    expect(result.stdout).toContain('  not run   NOTIF-07 (was pass, now not run)');
    expect(result.stdout).toContain(
      'No rule regressed. 1 rule(s) that passed before did not run in the newest run.',
    );
  });

  test('exits 1 when a rule also regressed: a failure outranks a gap', () => {
    const runs = nights('pass', 'pass', 'pass', 'not run');
    runs[3]!.rules['AUTH-01'] = 'fail';
    const result = gate(runs);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('regressed AUTH-01 (was pass)');
    expect(result.stdout).toContain('not run   NOTIF-07');
  });
});
