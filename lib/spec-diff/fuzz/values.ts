import fc from 'fast-check';
import { isObject } from '../../contract/properties.ts';
import type { Json } from './contract.ts';

/**
 * JSON values drawn from a JSON Schema, biased to where two schemas part: each bound and one past
 * it, lengths and counts at their bounds, each member of an enum or const, each type, strings of
 * each format and strings matching each pattern, objects with and without each property, arrays at
 * their least and most items. Not every value is valid: the validators say which are.
 */

const FORMAT_SAMPLES: Record<string, unknown[]> = {
  'date-time': ['2017-01-06T10:00:00.000Z', '2017-01-06T10:00:00Z', '2017-01-06'],
  date: ['2017-01-06', '2017-13-45'],
  time: ['10:00:00Z', '10:00'],
  email: ['a@example.com', 'a'],
  uri: ['https://example.com/a', '/relative'],
  'uri-reference': ['/a', 'a b'],
  uuid: ['3fa85f64-5717-4562-b3fc-2c963f66afa6', '3fa85f64'],
  ipv4: ['127.0.0.1', '300.1.1.1'],
  ipv6: ['::1'],
  hostname: ['example.com', '-bad-'],
  int32: [2147483647, 2147483648, -2147483649],
  int64: [9007199254740991, 2147483648],
  float: [1.5, 3.5e38],
  double: [1e300, 1.5],
  byte: ['aGVsbG8=', '***'],
  duration: ['P1D', 'P'],
  regex: ['^a$', '('],
  'json-pointer': ['/a/b', 'a'],
};

const BASICS: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  0.5,
  2,
  100,
  '',
  'a',
  'abc',
  'fuzz',
  'a\nb',
  [],
  [1],
  ['a'],
  {},
  { a: 'a' },
];

const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]) : []);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
const typesOf = (s: Json) => (typeof s.type === 'string' ? [s.type] : list(s.type).map(String));
const props = (s: Json): Json => (isObject(s.properties) ? s.properties : {});

/** Strings a pattern matches, drawn by fast-check; none when its syntax is beyond the drawer. */
function matching(pattern: unknown, seed: number, runs = 4): string[] {
  if (typeof pattern !== 'string') return [];
  const key = `${seed} ${pattern}`;
  let found = drawn.get(key);
  if (!found) {
    try {
      found = fc.sample(fc.stringMatching(new RegExp(pattern, 'u'), { size: 'xsmall' }), {
        numRuns: 4,
        seed,
      });
    } catch {
      found = [];
    }
    // Drawing is the slow part of the candidates, and the same patterns recur edit after edit.
    if (drawn.size > 2000) drawn.clear();
    drawn.set(key, found);
  }
  return found.slice(0, runs);
}
const drawn = new Map<string, string[]>();
const anyJson = new Map<number, unknown[]>();
const jsonValues = (seed: number) => {
  if (!anyJson.has(seed)) anyJson.set(seed, fc.sample(fc.jsonValue({ maxDepth: 2 }), { numRuns: 12, seed }));
  return anyJson.get(seed)!;
};

/** One value the schema most likely admits: what a property needs to stand in an object. */
export function likely(schema: unknown, seed: number, depth = 0): unknown {
  if (!isObject(schema) || depth > 4) return 'a';
  if (schema.const !== undefined) return schema.const;
  if (list(schema.enum).length) return list(schema.enum)[0];
  if (schema.default !== undefined) return schema.default;
  if (list(schema.examples).length) return list(schema.examples)[0];
  const branch = list(schema.allOf)[0] ?? list(schema.oneOf)[0] ?? list(schema.anyOf)[0];
  const types = typesOf(schema);
  const type = types[0] ?? (branch !== undefined ? undefined : 'string');
  if (type === undefined) return likely(branch, seed, depth + 1);
  if (type === 'null') return null;
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') {
    const low = num(schema.minimum) ?? (num(schema.exclusiveMinimum) ?? -Infinity) + 1;
    const m = num(schema.multipleOf) ?? 1;
    const at = Number.isFinite(low) ? Math.ceil(low / m) * m : m;
    return at;
  }
  if (type === 'array') {
    const n = num(schema.minItems) ?? 0;
    const tuple = list(schema.prefixItems).map((p) => likely(p, seed, depth + 1));
    return [
      ...tuple,
      ...Array.from({ length: Math.max(0, n - tuple.length) }, () => likely(schema.items, seed, depth + 1)),
    ];
  }
  if (type === 'object') {
    const out: Json = {};
    for (const name of list(schema.required).map(String))
      out[name] = likely(props(schema)[name], seed, depth + 1);
    return out;
  }
  const format = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format]?.[0] : undefined;
  if (format !== undefined) return format;
  const pattern = matching(schema.pattern, seed, 1)[0];
  if (pattern !== undefined) return pattern;
  return 'a'.repeat(Math.max(1, num(schema.minLength) ?? 0));
}

function numbers(s: Json): unknown[] {
  const out: unknown[] = [];
  for (const k of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const v = num(s[k]);
    if (v !== undefined) out.push(v, v + 1, v - 1, v + 0.5, v - 0.5, Math.round(v));
  }
  const m = num(s.multipleOf);
  if (m !== undefined) out.push(m, 2 * m, 3 * m, m / 2, 6 * m, 10 * m, m * 1.5);
  return out;
}

function strings(s: Json, seed: number): unknown[] {
  const out: unknown[] = [...matching(s.pattern, seed)];
  for (const k of ['minLength', 'maxLength']) {
    const n = num(s[k]);
    if (n !== undefined)
      for (const len of [n - 1, n, n + 1]) if (len >= 0) out.push('a'.repeat(len), '1'.repeat(len));
  }
  if (typeof s.format === 'string') out.push(...(FORMAT_SAMPLES[s.format] ?? []));
  return out;
}

function arrays(s: Json, seed: number, depth: number): unknown[] {
  const item = likely(s.items, seed, depth + 1);
  const tuple = list(s.prefixItems).map((p) => likely(p, seed, depth + 1));
  const out: unknown[] = [
    [item],
    [item, item],
    tuple,
    [...tuple, item],
    [...tuple, 'fuzz'],
    tuple.slice(0, -1),
  ];
  for (const k of ['minItems', 'maxItems', 'minContains', 'maxContains']) {
    const n = num(s[k]);
    if (n !== undefined)
      for (const len of [n - 1, n, n + 1])
        if (len >= 0 && len < 50) out.push(Array.from({ length: len }, () => item));
  }
  for (const c of candidates(s.items, seed, depth + 1).slice(0, 12)) out.push([c], [item, c]);
  for (const c of candidates(s.contains, seed, depth + 1).slice(0, 8)) out.push([c], [item, c], [c, c]);
  return out;
}

function objects(s: Json, seed: number, depth: number): unknown[] {
  const names = new Set([
    ...Object.keys(props(s)),
    ...list(s.required).map(String),
    ...Object.keys(isObject(s.dependentRequired) ? s.dependentRequired : {}),
    ...Object.keys(isObject(s.dependentSchemas) ? s.dependentSchemas : {}),
  ]);
  const full: Json = {};
  for (const name of names) full[name] = likely(props(s)[name], seed, depth + 1);
  const required = likely({ ...s, type: 'object' }, seed, depth) as Json;
  const out: unknown[] = [full, required, { ...full, fuzz: 'x' }, { ...required, properties: 1 }];
  for (const name of names) {
    const { [name]: _, ...without } = full;
    out.push(without, { [name]: full[name] });
    // A name the object requires and describes nowhere may hold any value: drawn as an empty schema's.
    for (const c of candidates(props(s)[name] ?? {}, seed, depth + 1).slice(0, 10))
      out.push({ ...full, [name]: c }, { ...required, [name]: c });
  }
  for (const pattern of Object.keys(isObject(s.patternProperties) ? s.patternProperties : {}))
    for (const key of matching(pattern, seed, 2)) out.push({ ...full, [key]: 'x' }, { ...full, [key]: 1 });
  for (const c of candidates(s.propertyNames, seed, depth + 1).slice(0, 6))
    if (typeof c === 'string') out.push({ ...full, [c]: 1 });
  for (const k of ['minProperties', 'maxProperties']) {
    const n = num(s[k]);
    if (n !== undefined && n <= 40)
      // Beside the required properties, or the body refuses the value for them first.
      for (const from of [{}, required])
        out.push({ ...from, ...Object.fromEntries(Array.from({ length: n + 1 }, (_, i) => [`p${i}`, 1])) });
  }
  return out;
}

/** Candidate values of a schema (and of its parts), at most a few hundred, each once. */
export function candidates(schema: unknown, seed: number, depth = 0): unknown[] {
  if (!isObject(schema) || depth > 3) return depth === 0 ? [...BASICS] : [];
  const s = schema;
  const out: unknown[] = [...list(s.enum), ...list(s.examples)];
  if (s.const !== undefined) out.push(s.const);
  if (s.default !== undefined) out.push(s.default);
  out.push(likely(s, seed, depth), ...numbers(s), ...strings(s, seed));
  const types = typesOf(s);
  if (!types.length || types.includes('array') || s.items !== undefined) out.push(...arrays(s, seed, depth));
  if (!types.length || types.includes('object') || s.properties !== undefined)
    out.push(...objects(s, seed, depth));
  for (const k of ['allOf', 'anyOf', 'oneOf'])
    for (const b of list(s[k])) out.push(...candidates(b, seed, depth + 1));
  for (const k of ['not', 'if', 'then', 'else']) out.push(...candidates(s[k], seed, depth + 1));
  if (depth === 0) out.push(...BASICS, ...jsonValues(seed));
  const seen = new Set<string>();
  return out.filter((v) => {
    const key = JSON.stringify(v);
    if (key === undefined || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
