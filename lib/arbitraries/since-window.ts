import { DAY } from '../time.ts';

/** How far back a `since` may go (NOTIF-04: "not older than 90 days before now"). Written here only. */
export const SINCE_WINDOW = 90 * DAY;

/** A minute either side of each edge of the window is not asserted (clock skew, NOTIF-04). */
export const SKEW = 60_000;

/** The oldest instant a `since` may name at `now`: the window's far edge. */
export const windowStart = (now: number): number => now - SINCE_WINDOW;

/**
 * Instants a `since` may name and surely be served: a day inside each edge of the window, so
 * neither clock skew nor a form's offset or truncation takes them out of it.
 */
export function wellInside(now: number): { min: number; max: number } {
  return { min: windowStart(now) + DAY, max: now - DAY };
}
