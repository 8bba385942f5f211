import type { JSONReport, JSONReportSuite, JSONReportTestResult } from '@playwright/test/reporter';

/** Where one phase of a mutation run spent its time (`npm run mutation -- --profile`). */
export interface PhaseProfile {
  name: string;
  /** Wall time of the phase, from the spawn of Playwright to its report. */
  seconds: number;
  /** Workers started: each new worker process (a restart counts again) has its own index. */
  workerStarts: number;
  /** Tests run (passed or failed), and tests declared but skipped. */
  tests: number;
  skipped: number;
  /** The time spent waiting on the tests that ran: the sum of their durations, over all workers. */
  waiting: number;
  /** From the spawn to the first test's start: the runner's and the first workers' start-up. */
  toFirstTest: number;
}

function results(suite: JSONReportSuite): JSONReportTestResult[] {
  return [
    ...(suite.specs ?? []).flatMap((spec) => spec.tests.flatMap((test) => test.results)),
    ...(suite.suites ?? []).flatMap(results),
  ];
}

/** The profile of a phase from Playwright's JSON report; `begun` is the spawn's time (ms since the epoch). */
export function phaseProfile(name: string, begun: number, seconds: number, report: JSONReport): PhaseProfile {
  const all = report.suites.flatMap(results);
  const ran = all.filter((r) => r.status !== 'skipped');
  const starts = all.map((r) => Date.parse(String(r.startTime))).filter(Number.isFinite);
  return {
    name,
    seconds,
    workerStarts: new Set(all.map((r) => r.workerIndex).filter((i) => i >= 0)).size,
    tests: ran.length,
    skipped: all.length - ran.length,
    waiting: ran.reduce((sum, r) => sum + r.duration, 0) / 1000,
    toFirstTest: starts.length ? (Math.min(...starts) - begun) / 1000 : seconds,
  };
}

/** The profile as a table, one phase a line, and the totals. */
export function profileTable(phases: readonly PhaseProfile[], workers: number): string {
  const total = (key: 'seconds' | 'workerStarts' | 'tests' | 'skipped' | 'waiting') =>
    phases.reduce((sum, p) => sum + p[key], 0);
  const row = (cells: (string | number)[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(64) : String(c).padStart(9))).join(' ');
  const line = (p: Omit<PhaseProfile, 'toFirstTest'> & { toFirstTest?: number }) =>
    row([
      p.name.slice(0, 64),
      p.seconds.toFixed(1),
      p.toFirstTest === undefined ? '' : p.toFirstTest.toFixed(1),
      p.workerStarts,
      p.tests,
      p.skipped,
      p.waiting.toFixed(1),
      // Busy: how much of the workers' wall time went to tests, not to starting, skipping or waiting.
      `${((p.waiting / Math.max(0.001, p.seconds * workers)) * 100).toFixed(0)}%`,
    ]);
  return [
    `Profile (${workers} workers):`,
    row(['phase', 'wall s', '1st test', 'workers', 'tests', 'skipped', 'tests s', 'busy']),
    ...phases.map(line),
    line({
      name: 'total',
      seconds: total('seconds'),
      workerStarts: total('workerStarts'),
      tests: total('tests'),
      skipped: total('skipped'),
      waiting: total('waiting'),
    }),
  ].join('\n');
}
