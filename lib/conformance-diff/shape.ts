import type { ErrorObject } from 'ajv';
import { isObject } from '../contract/properties.ts';

type Schema = Record<string, unknown>;

/** What one field of a body looks like, over every element where arrays repeat it. */
export interface ShapeEntry {
  /** JSON types seen: null, boolean, number, string, array, object. */
  types: Set<string>;
  /** Whether the contract names the field (or leaves its parent free-form). */
  documented: boolean;
  /** Whether the contract requires it. */
  required: boolean;
  /** For arrays: where their lengths lie against the contract's minItems and maxItems. */
  sizes: Set<string>;
}

/** A body's fields by JSON pointer, array indices and free-form keys collapsed to `*`. */
export interface Shape {
  entries: Map<string, ShapeEntry>;
  /** Each concrete instance path (as Ajv names it) → its collapsed pointer. */
  paths: Map<string, string>;
}

/** A schema violation, located by collapsed pointer. */
export interface SchemaError {
  pointer: string;
  keyword: string;
  message: string;
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const escapeSegment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** The schemas in force at one place: each and its allOf/anyOf/oneOf/then/else branches. */
function branches(schemas: Schema[]): Schema[] {
  return schemas.flatMap((s) => [
    s,
    ...branches(
      [
        ...['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : [])),
        s.then,
        s.else,
      ].filter(isObject),
    ),
  ]);
}

/** Whether the schemas say anything of the value's structure; if not, it is free-form. */
const structured = (schemas: Schema[]) =>
  schemas.some((s) =>
    ['properties', 'patternProperties', 'additionalProperties', 'items', 'prefixItems'].some((k) => k in s),
  );

function sizeClass(length: number, schemas: Schema[]): string {
  const mins = schemas.map((s) => s.minItems).filter((n): n is number => typeof n === 'number');
  const maxs = schemas.map((s) => s.maxItems).filter((n): n is number => typeof n === 'number');
  const min = mins.length ? Math.max(...mins) : 0;
  const max = maxs.length ? Math.min(...maxs) : Infinity;
  if (length < min) return `fewer than minItems ${min}`;
  if (length > max) return `more than maxItems ${max}`;
  return 'within the bounds';
}

/** Where the walk is: schemas in force, or a free-form part (documented), or no schema at all. */
type Mode = { kind: 'schema'; schemas: Schema[] } | { kind: 'free' } | { kind: 'none' };

/** Fields, types and array sizes of a JSON body against its schema; never its values. */
export function shapeOf(body: unknown, schema: unknown): Shape {
  const shape: Shape = { entries: new Map(), paths: new Map() };
  const walk = (value: unknown, mode: Mode, pointer: string, concrete: string, required: boolean) => {
    const entry = shape.entries.get(pointer) ?? {
      types: new Set<string>(),
      documented: mode.kind !== 'none',
      required,
      sizes: new Set<string>(),
    };
    shape.entries.set(pointer, entry);
    shape.paths.set(concrete, pointer);
    const type = jsonType(value);
    entry.types.add(type);
    const schemas = mode.kind === 'schema' ? mode.schemas : [];
    const inner = (child: Schema[]): Mode =>
      mode.kind === 'none'
        ? mode
        : mode.kind === 'free' || !structured(child)
          ? { kind: 'free' }
          : { kind: 'schema', schemas: child };
    if (Array.isArray(value)) {
      entry.sizes.add(sizeClass(value.length, schemas));
      const items = branches(
        schemas
          .flatMap((s): unknown[] => [
            s.items,
            ...(Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : []),
          ])
          .filter(isObject),
      );
      value.forEach((item, i) => walk(item, inner(items), `${pointer}/*`, `${concrete}/${i}`, false));
      return;
    }
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const segment = escapeSegment(key);
      const at = `${concrete}/${segment}`;
      if (mode.kind !== 'schema') {
        // Free-form keys are data (ids, names); undocumented ones are kept, to be named.
        walk(child, mode, `${pointer}/${mode.kind === 'free' ? '*' : segment}`, at, false);
        continue;
      }
      const named = schemas.flatMap((s) =>
        isObject(s.properties) && isObject(s.properties[key]) ? [s.properties[key]] : [],
      );
      const isRequired = schemas.some((s) => Array.isArray(s.required) && s.required.includes(key));
      if (named.length > 0) {
        walk(child, inner(branches(named)), `${pointer}/${segment}`, at, isRequired);
        continue;
      }
      const patterns = schemas.flatMap((s) =>
        isObject(s.patternProperties)
          ? Object.entries(s.patternProperties).flatMap(([p, sub]) =>
              new RegExp(p, 'u').test(key) && isObject(sub) ? [sub] : [],
            )
          : [],
      );
      const additional = schemas.map((s) => s.additionalProperties).filter(isObject);
      const open = [...patterns, ...additional];
      if (open.length > 0 || !schemas.some((s) => isObject(s.properties)))
        walk(child, inner(branches(open)), `${pointer}/*`, at, false);
      else walk(child, { kind: 'none' }, `${pointer}/${segment}`, at, false);
    }
  };
  walk(
    body,
    isObject(schema) ? { kind: 'schema', schemas: branches([schema]) } : { kind: 'free' },
    '',
    '',
    true,
  );
  return shape;
}

/** Ajv's errors, each at its collapsed pointer: a missing or extra property at the property's own. */
export function schemaErrors(errors: ErrorObject[] | null | undefined, shape: Shape): SchemaError[] {
  const collapse = (path: string) => shape.paths.get(path) ?? path.replace(/\/\d+(?=\/|$)/g, '/*');
  const found = new Map<string, SchemaError>();
  for (const error of errors ?? []) {
    const where = collapse(error.instancePath);
    const params = error.params as {
      missingProperty?: string;
      additionalProperty?: string;
      unevaluatedProperty?: string;
    };
    const extra = params.additionalProperty ?? params.unevaluatedProperty;
    let pointer = where;
    if (error.keyword === 'required' && params.missingProperty !== undefined)
      pointer = `${where}/${escapeSegment(params.missingProperty)}`;
    else if (extra !== undefined) pointer = collapse(`${error.instancePath}/${escapeSegment(extra)}`);
    const message = `${where || 'the body'}: ${error.message ?? error.keyword}`;
    found.set(`${pointer} ${error.keyword} ${message}`, { pointer, keyword: error.keyword, message });
  }
  return [...found.values()];
}

/** Whether an error concerns a pointer: the same place, or one inside the other. */
export function concerns(error: SchemaError, pointer: string): boolean {
  return (
    error.pointer === pointer ||
    pointer.startsWith(`${error.pointer}/`) ||
    error.pointer.startsWith(`${pointer}/`)
  );
}

export const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));
