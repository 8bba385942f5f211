import { liveEnvFor } from '../../mock/live-env.ts';
import { createMock } from '../../mock/server.ts';
import type { PlaywrightRunner } from './runner.ts';
import type { RunPlan } from './strategy.ts';

/**
 * The twin of the real gateway that live mode meets: an ordinary key's fields, plain-HTTP links,
 * trailing slashes, delivery at least once, outages, a required image source, refusals without
 * `message`, the default feed (Articles only, creations as updates, links by page alone, a
 * millisecond by uuid), the real words of its 400s. Five behaviours stay off, each the service's
 * own answer put in place of the one a fault spoils, so the fault could not show through them: a
 * future since answered with an empty page (NOTIF-03's faults are in that answer), image errors as
 * HTML pages (a page says nothing the suite may hold it to, IMG-04's naming of what was removed
 * included), an empty page's link written with since alone (it puts back the since that
 * next-link-without-since drops there, the one place a link without since still fails live), the
 * refusal of an image request without source (it answers in place of the 5xx of
 * image-without-source-500) and a page token served without since (it answers in place of the
 * other page of page-without-since-restarts).
 */
export const LIVE_TWIN = {
  as: 'ft-gateway',
  without: [
    'future-since-empty',
    'image-errors-html',
    'empty-next-since-only',
    'image-source-required',
    'next-page-alone',
  ],
  // The backend restart, as short as the client's first pauses: waited out, it costs the run no time.
  outage: { after: 300, seconds: 1 },
} as const;

/**
 * Runs `use` with plans run in live mode: the twin started with its control on, reached as a live
 * service, each request asking for its fault; the twin closed after.
 */
export async function withLiveTwin<T>(
  runner: PlaywrightRunner,
  use: (run: RunPlan) => Promise<T>,
): Promise<T> {
  const mock = await createMock({ seed: 1, control: true, ...LIVE_TWIN });
  try {
    // The twin is the run's own: no pace, budget or deadline, so no shared ledger to wait on.
    const env = {
      ...liveEnvFor(mock),
      CLM_RATE_LIMIT: 'none',
      CLM_REQUEST_BUDGET: 'none',
      CLM_RUN_TIMEOUT: 'none',
    };
    return await use((name, plan, faults) => runner.run(name, { project: 'live', env, plan, faults }));
  } finally {
    await mock.close();
  }
}
