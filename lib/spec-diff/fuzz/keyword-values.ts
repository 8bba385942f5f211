import fc from 'fast-check';
import { isObject } from '../../contract/properties.ts';
import type { Json } from './contract.ts';

/**
 * Valid values of each keyword JSON Schema 2020-12 and OpenAPI 3.1 give a schema: what an edit may
 * set. Each value is of the keyword's JSON type and meets its own constraints (a `maxLength` a
 * non-negative integer, a `pattern` an ECMA-262 expression, `required` unique strings), and no
 * more: a keyword without the type it constrains, or a required name no property lists, is valid.
 */

export const TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] as const;

/** Valid expressions, in Unicode mode too (Ajv compiles patterns with the `u` flag). */
export const PATTERNS = [
  '^[a-z]+$', '^[0-9]{3}$', '^\\d+(\\.\\d+)?$', '^[A-Z][a-z]*$', 'abc', '^.*$', '^$', '^[a-f0-9-]{36}$',
  '^https?://', '.+@.+', '^[^\\s]+$', '^(foo|bar)$', '^x-', '[0-9]', '^.{2,4}$',
]; // prettier-ignore

/** Formats Ajv's formats know, and one no validator knows (valid: `format` takes any string). */
export const FORMATS = [
  'date-time', 'date', 'time', 'email', 'uri', 'uri-reference', 'uuid', 'ipv4', 'ipv6', 'hostname',
  'int32', 'int64', 'float', 'double', 'byte', 'password', 'duration', 'regex', 'json-pointer',
]; // prettier-ignore
export const UNKNOWN_FORMAT = 'x-fuzz-format';

export const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -20, max: 20 }),
  fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 6 }),
);
export const json: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'b', 'id'), scalar, { maxKeys: 2 }) },
);

/** A small schema: a subschema an edit puts in `items`, `not`, a branch or a new property. */
export const smallSchema: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(true, false, {}),
  fc.constantFrom(...TYPES).map((type) => ({ type })),
  fc.nat(10).map((n) => ({ type: 'string', maxLength: n })),
  fc.integer({ min: -5, max: 5 }).map((n) => ({ type: 'integer', minimum: n })),
  fc
    .uniqueArray(scalar, { minLength: 1, maxLength: 3, comparator: 'SameValueZero' })
    .map((e) => ({ enum: e })),
  scalar.map((c) => ({ const: c })),
  fc.constantFrom(...PATTERNS).map((pattern) => ({ type: 'string', pattern })),
  fc.constant({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }),
  fc.constant({ type: 'array', items: { type: 'integer' } }),
  fc.constantFrom(...FORMATS).map((format) => ({ type: 'string', format })),
);

const count = (now: unknown) =>
  typeof now === 'number' && Number.isInteger(now) && now >= 0
    ? fc.oneof(fc.constantFrom(now + 1, Math.max(0, now - 1), 0), fc.nat(20))
    : fc.nat(20);
const number = (now: unknown) =>
  typeof now === 'number'
    ? fc.oneof(fc.constantFrom(now + 1, now - 1, now + 0.5, now * 2), fc.integer({ min: -100, max: 100 }))
    : fc.oneof(fc.integer({ min: -100, max: 100 }), fc.double({ min: -100, max: 100, noNaN: true }));
const bool = fc.boolean();
const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

/** The names an object keyword may name: its properties', some new, and `properties` itself. */
export const namesOf = (s: Json) => [
  ...Object.keys(isObject(s.properties) ? s.properties : {}),
  'fuzz',
  'id',
  'properties',
];

function typeValue(s: Json): fc.Arbitrary<unknown> {
  const now = typeof s.type === 'string' ? [s.type] : list(s.type).map(String);
  const others = TYPES.filter((t) => !now.includes(t));
  const changed: unknown[] = [now.includes('null') ? now.filter((t) => t !== 'null') : [...now, 'null']];
  if (others.length) changed.push([...now, others[0]]);
  if (now.length > 1) changed.push(now.slice(1));
  return fc.oneof(
    fc.constantFrom(...TYPES),
    fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
    fc.constantFrom(...changed.filter((t) => list(t).length > 0)),
  );
}

function enumValue(s: Json): fc.Arbitrary<unknown> {
  const now = list(s.enum);
  const fresh = fc.uniqueArray(scalar, { minLength: 1, maxLength: 4, comparator: 'SameValueZero' });
  if (now.length === 0) return fresh;
  const grown = scalar
    .filter((v) => !now.some((w) => JSON.stringify(w) === JSON.stringify(v)))
    .map((v) => [...now, v]);
  const shrunk = fc.nat(now.length - 1).map((i) => now.filter((_, j) => j !== i));
  return fc.oneof(fresh, grown, ...(now.length > 1 ? [shrunk] : []));
}

function requiredValue(s: Json): fc.Arbitrary<unknown> {
  const names = namesOf(s);
  const now = list(s.required).map(String);
  const added = fc.constantFrom(...names.filter((n) => !now.includes(n)), 'fuzz2').map((n) => [...now, n]);
  const fresh = fc.uniqueArray(fc.constantFrom(...names), { maxLength: 3 });
  if (now.length === 0) return fc.oneof(added, fresh);
  return fc.oneof(
    added,
    fresh,
    fc.nat(now.length - 1).map((i) => now.filter((_, j) => j !== i)),
  );
}

function propertiesValue(s: Json): fc.Arbitrary<unknown> {
  const now = isObject(s.properties) ? s.properties : {};
  const names = Object.keys(now);
  const added = fc
    .tuple(fc.constantFrom('fuzz', 'extra', 'properties'), smallSchema)
    .map(([n, schema]) => ({ ...now, [n]: schema }));
  if (names.length === 0) return added;
  const removed = fc.constantFrom(...names).map((n) => {
    const { [n]: _, ...rest } = now;
    return rest;
  });
  const replaced = fc.tuple(fc.constantFrom(...names), smallSchema).map(([n, x]) => ({ ...now, [n]: x }));
  return fc.oneof(added, removed, replaced);
}

function branchesValue(s: Json, keyword: string): fc.Arbitrary<unknown> {
  const now = list(s[keyword]);
  const fresh = fc.array(smallSchema, { minLength: 1, maxLength: 3 });
  if (now.length === 0) return fresh;
  return fc.oneof(
    fresh,
    smallSchema.map((x) => [...now, x]),
    ...(now.length > 1 ? [fc.nat(now.length - 1).map((i) => now.filter((_, j) => j !== i))] : []),
  );
}

const names = (s: Json) => fc.constantFrom(...namesOf(s));
const stringSchema = fc.oneof(
  fc.constantFrom(...PATTERNS).map((pattern) => ({ pattern })),
  fc.nat(8).map((maxLength) => ({ maxLength })),
  fc.constant({ enum: ['a', 'fuzz', 'id'] }),
);

/** Each keyword an edit sets, with the values it may take given the schema it is set in. */
// prettier-ignore
export const KEYWORD_VALUES: Record<string, (s: Json) => fc.Arbitrary<unknown>> = {
  type: typeValue,
  enum: enumValue,
  const: () => json,
  format: () => fc.constantFrom(...FORMATS, UNKNOWN_FORMAT),
  minimum: (s) => number(s.minimum),
  maximum: (s) => number(s.maximum),
  exclusiveMinimum: (s) => number(s.exclusiveMinimum),
  exclusiveMaximum: (s) => number(s.exclusiveMaximum),
  multipleOf: () => fc.constantFrom(0.5, 1, 2, 3, 5, 10, 0.1),
  minLength: (s) => count(s.minLength),
  maxLength: (s) => count(s.maxLength),
  pattern: () => fc.constantFrom(...PATTERNS),
  items: () => smallSchema,
  prefixItems: () => fc.array(smallSchema, { minLength: 1, maxLength: 3 }),
  minItems: (s) => count(s.minItems),
  maxItems: (s) => count(s.maxItems),
  uniqueItems: () => bool,
  contains: () => smallSchema,
  minContains: (s) => count(s.minContains),
  maxContains: (s) => count(s.maxContains),
  properties: propertiesValue,
  required: requiredValue,
  additionalProperties: () => fc.oneof(bool, smallSchema),
  unevaluatedProperties: () => fc.oneof(bool, smallSchema),
  unevaluatedItems: () => fc.oneof(bool, smallSchema),
  patternProperties: () => fc.dictionary(fc.constantFrom(...PATTERNS), smallSchema, { minKeys: 1, maxKeys: 2 }),
  propertyNames: () => stringSchema,
  minProperties: (s) => count(s.minProperties),
  maxProperties: (s) => count(s.maxProperties),
  dependentRequired: (s) => fc.dictionary(names(s), fc.uniqueArray(names(s), { maxLength: 2 }), { minKeys: 1, maxKeys: 2 }),
  dependentSchemas: (s) => fc.dictionary(names(s), smallSchema, { minKeys: 1, maxKeys: 2 }),
  allOf: (s) => branchesValue(s, 'allOf'),
  anyOf: (s) => branchesValue(s, 'anyOf'),
  oneOf: (s) => branchesValue(s, 'oneOf'),
  not: () => smallSchema,
  if: () => smallSchema,
  then: () => smallSchema,
  else: () => smallSchema,
  readOnly: () => bool,
  writeOnly: () => bool,
  deprecated: () => bool,
  default: () => json,
  examples: () => fc.array(json, { maxLength: 2 }),
  description: () => fc.string({ maxLength: 12 }),
  title: () => fc.string({ maxLength: 12 }),
  $comment: () => fc.string({ maxLength: 12 }),
  contentMediaType: () => fc.constantFrom('application/json', 'text/plain', 'image/png'),
  contentEncoding: () => fc.constantFrom('base64', 'base32', '7bit'),
  'x-fuzz': () => json,
};
