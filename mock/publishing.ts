import type { PublishRequest, State } from './state/index.ts';
import { Random } from './state/random.ts';

/** How many changes a minute the standalone mock publishes on the real clock unless told otherwise. */
export const DEFAULT_PUBLISH_RATE = 3;

/**
 * Publishes changes as time passes, as the real service does: `perMinute` on average, at seeded
 * intervals, mostly updates, some creations and deletions. Returns what stops it. The timer never
 * keeps the process alive on its own.
 */
export function startPublishing(state: State, perMinute: number, seed: number): () => void {
  if (!(perMinute > 0)) return () => {};
  // Its own stream: the seeded data and the changes published through `publish` stay as they were.
  const random = new Random(seed + 7);
  const mean = 60_000 / perMinute;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    // Between half and one and a half of the mean: steady on average, never in lockstep.
    timer = setTimeout(tick, Math.max(1, Math.round(mean * (0.5 + random.int(0, 1_000) / 1_000))));
    timer.unref();
  };
  const tick = () => {
    const roll = random.int(0, 9);
    const type: PublishRequest['type'] = roll < 2 ? 'CREATE' : roll < 3 ? 'DELETE' : 'UPDATE';
    state.publish([{ type }]);
    schedule();
  };
  schedule();
  return () => clearTimeout(timer);
}
