import { unfinished, type ConformanceReport } from './model.ts';

/**
 * How a conformance run ends, for CI and scripts. 0: every rule the run set out to check was
 * decided and none failed. 1: a test failed (Playwright's own code). 2: a configuration error,
 * before any request. 3: incomplete: the run stopped (budget, deadline, a wait too long, no
 * answer) or was cut short, so some rules were left undecided, and none failed. A partial run (a
 * filter, a shard, files named) that ran all it selected is not incomplete for this purpose.
 */
export const EXIT = { pass: 0, fail: 1, config: 2, incomplete: 3 } as const;

/** The code a report's verdict stands for. */
export function exitCodeOf(report: Pick<ConformanceReport, 'verdict' | 'incomplete' | 'meta'>): number {
  if (report.verdict === 'fail') return EXIT.fail;
  if (report.verdict === 'incomplete' && unfinished(report).length > 0) return EXIT.incomplete;
  return EXIT.pass;
}

/**
 * Makes this process exit with code 3 whatever code it is about to exit with. Playwright's runner
 * ends with `process.exit(0 or 1)` after every reporter is done; an `exit` listener can still set
 * the code, and is the one place that sees it.
 */
export function exitIncompleteAtEnd(): void {
  process.once('exit', () => {
    process.exitCode = EXIT.incomplete;
  });
}
