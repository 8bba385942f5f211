import { DAY } from '../mock/state/clock.ts';
import type { State } from '../mock/state/index.ts';

/** The fixed clock of the benchmarks' mocks. */
export const NOW = '2026-11-22T12:00:00.000Z';

/** A since in the middle of the window whose page is full: 200 changes, a whole page. */
export function fullPageSince(state: State): string {
  const log = state.log;
  let index = log.firstAfter(Date.parse(NOW) - 45 * DAY);
  while (index + 200 < log.length && log.timeAt(index + 199)! - log.timeAt(index)! >= DAY) index++;
  return new Date(log.timeAt(index)! - 1).toISOString();
}
