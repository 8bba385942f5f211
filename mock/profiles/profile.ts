import type { Seen, Step } from '../faults/index.ts';
import type { MockRequest, MockResponse } from '../types.ts';

/**
 * One documented way a real service answers that the clean mock does not: a step around the
 * pipeline like a fault's, with where it is known from.
 */
export interface Behaviour extends Step {
  /** The public source: captured answers, FT's documentation, or the code of its services. */
  source: string;
  /**
   * Whether the behaviour changed this answer, for one whose change the answers alone do not show
   * (a switch a handler reads). Without it, a behaviour changed an answer when the request it passed
   * on, or the response it gave back, differs from what it got.
   */
  changed?: (request: MockRequest, response: MockResponse, seen: Seen) => boolean;
}

/** A named set of behaviours that together answer as one real service does, all on by default. */
export interface Profile {
  name: string;
  description: string;
  /** In the order they wrap the pipeline, the first outermost. */
  behaviours: readonly Behaviour[];
}
