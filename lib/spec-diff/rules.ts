import { OTHER_RULES } from './other-rules.ts';
import { SCHEMA_KINDS } from './schema-rules.ts';
import type { Level, Rule } from './types.ts';

export { LEVELS, type Direction, type Level, type Rule } from './types.ts';

/**
 * The gate's rule table: every change the gate can report is one row, with an id, a level, the
 * side of the wire it concerns and a reason. Schema rules are written once per kind of change with
 * its effect on the set of valid values, then placed on each side of the wire: narrowing what a
 * request may carry breaks clients, and so does widening what a response may contain.
 */

/**
 * Where a schema sits, with the side of the wire its values travel. A webhook's or a callback's
 * request is sent by the service, so its schemas read like a response's, and the reverse.
 */
export const PLACES = {
  'request-parameter': 'request',
  'request-body': 'request',
  'request-property': 'request',
  'response-body': 'response',
  'response-property': 'response',
  'response-header': 'response',
  'callback-request-body': 'response',
  'callback-request-property': 'response',
  'callback-response-body': 'request',
  'callback-response-property': 'request',
} as const satisfies Record<string, 'request' | 'response'>;
export type Place = keyof typeof PLACES;

/** Where a rule of a place differs from its kind: a parameter's default is part of the call. */
const PLACE_LEVELS: Partial<Record<`${Place}-${string}`, Level>> = {
  'request-parameter-default-added': 'error',
  'request-parameter-default-changed': 'error',
  'request-parameter-default-removed': 'error',
};

/** Every schema kind on every place, levelled by the side of the wire the place is on. */
function schemaRules(): Rule[] {
  const rules: Rule[] = [];
  for (const [place, side] of Object.entries(PLACES) as [Place, 'request' | 'response'][])
    for (const [kind, { sides, reason }] of SCHEMA_KINDS) {
      const id = `${place}-${kind}` as const;
      const level = PLACE_LEVELS[id] ?? sides[side === 'request' ? 0 : 1];
      rules.push({
        id,
        level,
        direction: side,
        area: place.startsWith('callback') ? 'webhooks' : 'schemas',
        reason,
      });
    }
  return rules;
}

export const RULES: readonly Rule[] = [...OTHER_RULES, ...schemaRules()];
const BY_ID = new Map(RULES.map((r) => [r.id, r]));

export const hasRule = (id: string) => BY_ID.has(id);

export function rule(id: string): Rule {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`spec-diff: no rule ${id} in the table`);
  return found;
}
