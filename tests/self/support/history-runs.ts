import { spawnSync } from 'node:child_process';
import type { HistoryRecord } from '../../../lib/report/history.ts';
import type { Verdict } from '../../../lib/report/model.ts';
import { tsxArgs } from './commands.ts';
import { scratchFolder } from '../../../lib/scratch.ts';

export const day = (i: number) => new Date(Date.UTC(2025, 0, 1 + i, 2, 40)).toISOString();
export const BASE = 'https://api.example.com';

/** A run on day `i` with the given verdicts; a failing NOTIF-07 comes with its finding. */
export function run(
  i: number,
  rules: Record<string, Verdict>,
  extra: Partial<HistoryRecord> = {},
): HistoryRecord {
  return {
    at: day(i),
    commit: 'abc123',
    targetKind: 'live',
    baseUrl: BASE,
    contract: 'c0ffee',
    faults: [],
    verdict: Object.values(rules).includes('fail') ? 'fail' : 'pass',
    rules,
    findings:
      rules['NOTIF-07'] === 'fail' ? [{ id: 'F1', title: 'A page of 201 changes', rules: ['NOTIF-07'] }] : [],
    drift: [],
    latency: [{ operation: 'listNotifications', count: 3, p50: 100 + i, p95: 200 + i }],
    requests: 50 + i,
    complete: true,
    ...extra,
  };
}
/** Runs of one rule, a verdict each, oldest first. */
export const series = (...verdicts: Verdict[]) => verdicts.map((v, i) => run(i, { 'NOTIF-07': v }));
export const tmp = () => scratchFolder('history');
export const tsx = (script: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, tsxArgs(`scripts/${script}.ts`, args), {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
