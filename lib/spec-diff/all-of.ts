import { isObject } from '../contract/properties.ts';
import { ANNOTATIONS, same, typeList, type Schema } from './json.ts';

/** The parts of an `allOf` laid over one another, and what a schema no value meets reads as. */

/** Two parts' bounds together: the tighter one holds. */
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const TIGHTER = new Map<string, (a: number, b: number) => number>([
  ...UPPER.map((k): [string, (a: number, b: number) => number] => [k, Math.min]),
  ...LOWER.map((k): [string, (a: number, b: number) => number] => [k, Math.max]),
]);

/** Lays one `allOf` part over the result; false when they conflict. */
export function mergeInto(result: Schema, part: Schema): boolean {
  mergeItems(result, part);
  for (const [key, value] of Object.entries(part)) {
    if (key === 'items' || key === 'prefixItems') continue;
    const mine = result[key];
    if (mine === undefined) {
      result[key] = key === 'properties' ? { ...(value as Schema) } : value;
      continue;
    }
    if (ANNOTATIONS.has(key) || same(mine, value)) continue;
    if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) {
      result[key] = [...new Set([...(mine as unknown[]), ...(value as unknown[])])];
    } else if (key === 'type') {
      const common = intersectTypes(typeList(mine) ?? [], typeList(value) ?? []);
      if (common.length === 0) return false;
      result.type = common;
    } else if (key === 'properties' && isObject(mine) && isObject(value)) {
      // A property both parts describe must meet both.
      for (const [name, schema] of Object.entries(value))
        mine[name] =
          mine[name] === undefined || same(mine[name], schema) ? schema : { allOf: [mine[name], schema] };
    } else if (TIGHTER.has(key) && typeof mine === 'number' && typeof value === 'number') {
      result[key] = TIGHTER.get(key)!(mine, value);
    } else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const common = mine.filter((v) => value.some((w) => same(v, w)));
      if (common.length === 0) return false;
      result.enum = common;
    } else return false;
  }
  return true;
}

export function intersectTypes(a: string[], b: string[]): string[] {
  const out = new Set<string>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if (t === 'integer' && b.includes('number')) out.add('integer');
    else if (t === 'number' && b.includes('integer')) out.add('integer');
  }
  return [...out].sort();
}

/** A schema of both, or the one there is. */
const both = (a: unknown, b: unknown) =>
  a === undefined ? b : b === undefined || same(a, b) ? a : { allOf: [a, b] };

/**
 * The items of two parts: `items` holds past its own schema's prefixItems only, so each position
 * meets what each part asks of it there (its prefixItems entry, else its items).
 */
function mergeItems(result: Schema, part: Schema) {
  const prefix = (s: Schema) => (Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : []);
  const at = (s: Schema, i: number) => (i < prefix(s).length ? prefix(s)[i] : s.items);
  const n = Math.max(prefix(result).length, prefix(part).length);
  if (n > 0) result.prefixItems = Array.from({ length: n }, (_, i) => both(at(result, i), at(part, i)));
  const items = both(result.items, part.items);
  if (items !== undefined) result.items = items;
}

/** Keywords that say nothing of which values are valid: a schema no value meets keeps them. */
const KEPT = new Set([...ANNOTATIONS, 'deprecated', 'readOnly', 'writeOnly']);

/**
 * A schema no value meets (allOf parts, or a type and a null branch, that share no type), read as
 * `not: {}`: whatever else it says constrains nothing, and only what describes it is kept.
 */
export const nothing = (s: Schema): Schema => ({
  ...Object.fromEntries(Object.entries(s).filter(([k]) => KEPT.has(k) || k.startsWith('x-'))),
  not: {},
});
