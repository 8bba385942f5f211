/** The levels and sides of the rule table, and the shape of a row. */
export type Level = 'error' | 'warning' | 'info';
export type Direction = 'request' | 'response' | 'both';

export interface Rule<Id extends string = string> {
  id: Id;
  level: Level;
  direction: Direction;
  reason: string;
  /** Where it applies, for the published table: "paths", "parameters", "request body", … */
  area: string;
  /** The module that emits it, from the repository's root: `lib/spec-diff/content.ts`. */
  emitted: string;
  /** A schema rule's kind of change and the place it sits (`max-decreased`, `request-body`). */
  kind?: string;
  place?: string;
}

export const LEVELS: Level[] = ['error', 'warning', 'info'];
