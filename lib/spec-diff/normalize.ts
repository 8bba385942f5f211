import type { SpecDocument } from './document.ts';
import { isObject } from '../contract/properties.ts';
import { intersectTypes, mergeInto, nothing } from './all-of.ts';
import { ANNOTATIONS, canonical, same, typeList, type Schema } from './json.ts';

export { ANNOTATIONS, asText, canonical, same, typeList, type Schema } from './json.ts';

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
        // Beside a sibling type, the branches admit only what it admits too: none, when they share none.
        const branches = innerTypes ? [...innerTypes, 'null'] : undefined;
        types = types && branches ? intersectTypes(types, branches) : (types ?? branches);
        if (types?.length === 0) return nothing(s);
        // Null is one of the values: a list of values admits it as a nullable type does.
        const admitsNull = !types || types.includes('null');
        if (admitsNull && Array.isArray(s.enum) && !s.enum.includes(null))
          s.enum = [...(s.enum as unknown[]), null];
        if (!types) s['x-null-allowed'] = true;
      } else {
        // A sibling type still decides: beside `type: string`, a null branch admits no null.
        s[combiner] = unwrapped.rest;
      }
    }
    if (types) s.type = [...new Set(types)].sort();
    else delete s.type;
    asEnum(s);
    // One alternative alone is that alternative, and meets the rest as an allOf part does.
    for (const combiner of ['oneOf', 'anyOf'] as const) {
      const branches = s[combiner];
      if (!Array.isArray(branches) || branches.length !== 1 || s.discriminator !== undefined) continue;
      s.allOf = [...(Array.isArray(s.allOf) ? (s.allOf as unknown[]) : []), branches[0]];
      delete s[combiner];
    }
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
      let result: Schema = { ...rest };
      // A part that conflicts with those merged stays a part: the others still merge.
      const left: unknown[] = [];
      for (const part of allOf as unknown[]) {
        const { schema, unresolved } = this.read(part);
        // Merged parts add to the properties: a copy, so the document itself is never changed.
        const trial: Schema = { ...result };
        if (isObject(trial.properties)) trial.properties = { ...trial.properties };
        if (!unresolved && mergeInto(trial, schema)) result = trial;
        else left.push(part);
      }
      return left.length ? this.partTypes({ ...result, allOf: left }, left) : result;
    } finally {
      this.busy.delete(raw);
    }
  }

  /**
   * Parts that conflict stay an `allOf`, yet its values are of the types all parts admit: read
   * as that type, not as no type at all (which would admit every value); when they share no
   * type, no value is valid.
   */
  private partTypes(s: Schema, parts: unknown[]): Schema {
    const lists = [s.type, ...parts.map((p) => this.read(p).schema.type)]
      .map(typeList)
      .filter((t) => t !== undefined);
    if (lists.length === 0) return s;
    const common = lists.reduce((a, b) => intersectTypes(a, b));
    return common.length ? { ...s, type: common } : nothing(s);
  }
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
