import type { SpecDocument } from './document.ts';
import { isObject } from '../contract/properties.ts';

export type Schema = Record<string, unknown>;

/** Keywords that describe a schema without changing which values it admits. */
export const ANNOTATIONS = new Set([
  'title',
  'description',
  'example',
  'examples',
  '$comment',
  'externalDocs',
  'xml',
  '$schema',
  '$id',
  '$anchor',
  '$defs',
  'definitions',
  'summary',
]);

/** A stable text of a JSON value: the same for the same value whatever the key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}
/**
 * Whether two JSON values are the same whatever the key order: what comparing their `canonical`
 * texts says, without writing them (a large unchanged subtree is walked, and is often one object).
 */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  if (isObject(a) || isObject(b)) return false;
  return (JSON.stringify(a) ?? 'undefined') === (JSON.stringify(b) ?? 'undefined');
}
/** A value as text for a message: a string as it is, anything else as JSON. */
export const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : canonical(value);

const TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/**
 * A schema read by its meaning, so that what means the same compares the same: `type` always an
 * array (with "null" for 3.0's `nullable` and for a `oneOf`/`anyOf` with a null branch), 3.0's
 * boolean exclusive bounds as 3.1's numbers, defaults that mean nothing dropped, a boolean schema
 * as an object, and an `allOf` of compatible parts merged into one. Subschemas stay as they are:
 * they are read when the comparison reaches them.
 */
export class SchemaReader {
  private readonly cache = new WeakMap<object, Schema>();
  private readonly busy = new WeakSet<object>();
  constructor(private readonly doc: SpecDocument) {}

  /** The schema a node stands for (following `$ref`), read by its meaning. */
  read(node: unknown): { schema: Schema; raw: unknown; unresolved?: string } {
    if (node === true || node === undefined) return { schema: {}, raw: node };
    if (node === false) return { schema: { not: {} }, raw: node };
    const { node: raw, unresolved } = this.doc.deref(node);
    if (unresolved) return { schema: { $ref: unresolved }, raw, unresolved };
    if (!isObject(raw)) return { schema: {}, raw };
    let schema = this.cache.get(raw);
    if (!schema) {
      schema = this.normalize(raw);
      this.cache.set(raw, schema);
    }
    return { schema, raw };
  }

  private normalize(raw: Schema): Schema {
    const s: Schema = { ...raw };
    const v30 = this.doc.version === '3.0';
    const nullable = s.nullable === true || s['x-nullable'] === true;
    delete s.nullable;
    delete s['x-nullable'];
    let types = typeList(s.type);
    if (v30 || nullable) {
      // 3.0: booleans beside `minimum`/`maximum`.
      for (const [flag, bound] of [
        ['exclusiveMinimum', 'minimum'],
        ['exclusiveMaximum', 'maximum'],
      ] as const) {
        if (typeof s[flag] !== 'boolean') continue;
        if (s[flag] === true && typeof s[bound] === 'number') {
          s[flag] = s[bound];
          delete s[bound];
        } else delete s[flag];
      }
    }
    if (nullable && types) types = [...new Set([...types, 'null'])];
    if (nullable && !types && Array.isArray(s.enum) && !s.enum.includes(null))
      s.enum = [...(s.enum as unknown[]), null];
    for (const combiner of ['oneOf', 'anyOf'] as const) {
      const unwrapped = this.withoutNullBranch(s[combiner]);
      if (!unwrapped) continue;
      delete s[combiner];
      if (unwrapped.rest.length === 1 && Object.keys(s).every((k) => ANNOTATIONS.has(k) || k === 'type')) {
        // `oneOf: [X, {type: null}]` is X, nullable.
        const inner = this.read(unwrapped.rest[0]).schema;
        const innerTypes = typeList(inner.type);
        Object.assign(s, inner, { ...pick(s, ANNOTATIONS) });
        // Null is one of the values: a list of values admits it as a nullable type does.
        if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...(s.enum as unknown[]), null];
        types = innerTypes ? [...new Set([...innerTypes, 'null'])] : undefined;
        if (!innerTypes) s['x-null-allowed'] = true;
      } else {
        // A sibling type still decides: beside `type: string`, a null branch admits no null.
        s[combiner] = unwrapped.rest;
      }
    }
    if (types) s.type = [...new Set(types)].sort();
    else delete s.type;
    asEnum(s);
    // The order of a list of values or of required names says nothing: read sorted.
    for (const key of ['enum', 'required'] as const)
      if (Array.isArray(s[key]))
        s[key] = [...(s[key] as unknown[])].sort((x, y) => (canonical(x) < canonical(y) ? -1 : 1));
    dropDefaults(s);
    if (Array.isArray(s.allOf)) return this.mergeAllOf(s, raw);
    return s;
  }

  /** The branches of a combiner without a `{type: null}` one, when it has one. */
  private withoutNullBranch(value: unknown): { rest: unknown[] } | undefined {
    if (!Array.isArray(value)) return undefined;
    const rest = value.filter((b) => {
      const t = this.read(b).schema;
      return !(same(t.type, ['null']) && Object.keys(t).every((k) => k === 'type' || ANNOTATIONS.has(k)));
    });
    return rest.length < value.length && rest.length > 0 ? { rest } : undefined;
  }

  /**
   * An `allOf` whose parts do not conflict is the one schema they make together, so moving
   * properties into or out of an `allOf` part is no change. Parts that conflict stay an `allOf`.
   */
  private mergeAllOf(s: Schema, raw: Schema): Schema {
    if (this.busy.has(raw)) return s;
    this.busy.add(raw);
    try {
      const { allOf, ...rest } = s;
      const result: Schema = { ...rest };
      // Merged parts add to the properties: a copy, so the document itself is never changed.
      if (isObject(result.properties)) result.properties = { ...result.properties };
      for (const part of allOf as unknown[]) {
        const { schema, unresolved } = this.read(part);
        if (unresolved || !mergeInto(result, schema)) return this.partTypes(s, allOf as unknown[]);
      }
      return result;
    } finally {
      this.busy.delete(raw);
    }
  }

  /**
   * Parts that conflict stay an `allOf`, yet its values are of the types all parts admit: read
   * as that type, not as no type at all (which would admit every value).
   */
  private partTypes(s: Schema, parts: unknown[]): Schema {
    const lists = [s.type, ...parts.map((p) => this.read(p).schema.type)]
      .map(typeList)
      .filter((t) => t !== undefined);
    if (lists.length === 0) return s;
    const common = lists.reduce((a, b) => intersectTypes(a, b));
    return common.length ? { ...s, type: common } : s;
  }
}

export function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return TYPES.includes(type) ? [type] : [type];
  if (Array.isArray(type) && type.length > 0) return type.map(asText);
  return undefined;
}

/** A schema of values only (`const`, `enum`), and annotations: its values, or none. */
function valuesOnly(branch: unknown): unknown[] | undefined {
  if (!isObject(branch)) return undefined;
  if (!Object.keys(branch).every((k) => k === 'const' || k === 'enum' || ANNOTATIONS.has(k)))
    return undefined;
  if (branch.const !== undefined && branch.enum === undefined) return [branch.const];
  return Array.isArray(branch.enum) && branch.const === undefined ? branch.enum : undefined;
}

/**
 * A `oneOf` or `anyOf` of values (`const`s, single-value enums) admits what one `enum` of them
 * admits: read as that enum. A `oneOf` whose branches share a value refuses it: left as it is.
 */
function asEnum(s: Schema) {
  if (s.enum !== undefined || s.const !== undefined) return;
  for (const combiner of ['oneOf', 'anyOf'] as const) {
    const branches = s[combiner];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const lists = branches.map(valuesOnly);
    if (lists.some((l) => l === undefined)) continue;
    const all = lists.flat();
    const distinct = new Set(all.map(canonical));
    if (combiner === 'oneOf' && distinct.size < all.length) continue;
    delete s[combiner];
    s.enum = [...new Map(all.map((v) => [canonical(v), v])).values()];
    return;
  }
}

function pick(s: Schema, keys: Set<string>): Schema {
  return Object.fromEntries(Object.entries(s).filter(([k]) => keys.has(k)));
}

/** Values that say what leaving the keyword out says. */
function dropDefaults(s: Schema) {
  const nothing: [string, unknown][] = [
    ['minLength', 0],
    ['minItems', 0],
    ['minProperties', 0],
    ['uniqueItems', false],
    ['deprecated', false],
    ['readOnly', false],
    ['writeOnly', false],
    ['additionalProperties', true],
    ['items', true],
    ['unevaluatedProperties', true],
    ['unevaluatedItems', true],
  ];
  for (const [key, value] of nothing) if (same(s[key], value)) delete s[key];
  if (isObject(s.additionalProperties) && Object.keys(s.additionalProperties).length === 0)
    delete s.additionalProperties;
  if (Array.isArray(s.required) && s.required.length === 0) delete s.required;
  if (s.pattern === '') delete s.pattern;
  if (s.contains !== undefined && s.minContains === 1) delete s.minContains;
}

/** Two parts' bounds together: the tighter one holds. */
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const TIGHTER = new Map<string, (a: number, b: number) => number>([
  ...UPPER.map((k): [string, (a: number, b: number) => number] => [k, Math.min]),
  ...LOWER.map((k): [string, (a: number, b: number) => number] => [k, Math.max]),
]);

/** Lays one `allOf` part over the result; false when they conflict. */
function mergeInto(result: Schema, part: Schema): boolean {
  for (const [key, value] of Object.entries(part)) {
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

function intersectTypes(a: string[], b: string[]): string[] {
  const out = new Set<string>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if (t === 'integer' && b.includes('number')) out.add('integer');
    else if (t === 'number' && b.includes('integer')) out.add('integer');
  }
  return [...out].sort();
}
