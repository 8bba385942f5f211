import { OTHER_RULES, type WrittenId } from './other-rules.ts';
import { SCHEMA_KINDS, type SchemaKind } from './schema-rules.ts';
import type { Level, Rule } from './levels.ts';

export { LEVELS, type Direction, type Level, type Rule } from './levels.ts';
export type { SchemaKind } from './schema-rules.ts';
export type { WrittenId } from './other-rules.ts';

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

/** A schema rule's id: its place and its kind of change (`request-body-max-decreased`). */
export type PlacedId = `${Place}-${SchemaKind}`;
/** Every id of the table: a change with any other id does not compile. */
export type RuleId = WrittenId | PlacedId;

/** Where a rule of a place differs from its kind: a parameter's default is part of the call. */
const PLACE_LEVELS: Partial<Record<PlacedId, Level>> = {
  'request-parameter-default-added': 'error',
  'request-parameter-default-changed': 'error',
  'request-parameter-default-removed': 'error',
};

/** Every schema kind on every place, levelled by the side of the wire the place is on. */
function schemaRules(): Rule<PlacedId>[] {
  const rules: Rule<PlacedId>[] = [];
  for (const [place, side] of Object.entries(PLACES) as [Place, 'request' | 'response'][])
    for (const [kind, { sides, emitted, reason }] of SCHEMA_KINDS) {
      const id = `${place}-${kind}` as const;
      const level = PLACE_LEVELS[id] ?? sides[side === 'request' ? 0 : 1];
      rules.push({
        id,
        level,
        direction: side,
        area: place.startsWith('callback') ? 'webhooks' : 'schemas',
        emitted,
        reason,
        kind,
        place,
      });
    }
  return rules;
}

export const RULES: readonly Rule<RuleId>[] = [...OTHER_RULES, ...schemaRules()];
const BY_ID = new Map<string, Rule<RuleId>>(RULES.map((r) => [r.id, r]));

/** A rule of the table by its id; the type admits no other, so the throw guards only a broken table. */
export function rule(id: RuleId): Rule<RuleId> {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`spec-diff: no rule ${id} in the table`);
  return found;
}
