import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import { OUTAGE_ANNOTATION } from '../lib/report/model.ts';
import type { RunLedger } from '../lib/run/ledger-server.ts';

/**
 * Where a live run marks the tests an outage stopped: their run again at the end of the run (the
 * retry Playwright queues last) goes on; any other test's retry keeps its first attempt's result.
 */
export const outageMark = (testInfo: TestInfo) =>
  join(testInfo.project.outputDir, '.outages', testInfo.testId);

/**
 * A test an outage stopped before its last attempt: marked, and failed as "not run yet", so that
 * Playwright runs it again at the end of the run; at its last attempt it is not run.
 */
export function stopped(
  testInfo: TestInfo,
  runStop: { reason?: string },
  reason: string,
  cause?: 'outage',
): never {
  if (cause !== 'outage' || testInfo.retry >= testInfo.project.retries)
    return notRun(testInfo, runStop, reason);
  mkdirSync(dirname(outageMark(testInfo)), { recursive: true });
  writeFileSync(outageMark(testInfo), reason);
  testInfo.annotations.push({ type: OUTAGE_ANNOTATION, description: reason });
  throw new Error(`not run yet: ${reason}; run again at the end of the run`);
}

/** Ends the test as skipped, "not run" with the reason: never a failure of the service. */
export function notRun(testInfo: TestInfo, runStop: { reason?: string }, reason: string): never {
  runStop.reason = reason;
  testInfo.skip(true, `not run: ${reason}`);
  throw new Error(`not run: ${reason}`);
}

/**
 * One test's view of the run's ledger and its stop. Once an outage has stopped the test, each later
 * request of it is refused before it is sent and ends as that outage did: a property's further runs
 * and the shrinking of its "counterexample" never reach the service (hundreds of requests else).
 */
export function stopsOnOutage(
  testInfo: TestInfo,
  runStop: { reason?: string },
  ledger: RunLedger,
): { ledger: RunLedger; stop: (reason: string, cause?: 'outage') => never } {
  let outage: string | undefined;
  return {
    ledger: {
      take: () => (outage === undefined ? ledger.take() : Promise.resolve({ ok: false, reason: outage })),
      pause: (seconds) => ledger.pause(seconds),
      stop: (reason) => ledger.stop(reason),
      transportFailure: (reason) => ledger.transportFailure(reason),
      answered: () => ledger.answered(),
      state: () => ledger.state(),
    },
    stop: (reason, cause) => {
      if (cause === 'outage') outage ??= reason;
      return outage === undefined
        ? stopped(testInfo, runStop, reason, cause)
        : stopped(testInfo, runStop, outage, 'outage');
    },
  };
}
