import { isObject } from '../contract/properties.ts';
import type { Redactor } from '../client/redact.ts';
import { formatsOf, maskText, placeholder } from './placeholder.ts';

export { maskText, placeholder } from './placeholder.ts';

type Schema = Record<string, unknown>;

/** The extension that marks a field whose values identify a person: they never reach the store. */
export const PERSONAL = 'x-personal';

/**
 * The schemas in force at one place: each, its combiners' branches, its conditions' branches and
 * what it expects (`x-expect`), where a field the interface does not show may be described.
 */
function inForce(schemas: Schema[]): Schema[] {
  return schemas.flatMap((s) =>
    [s, ...inForce(
      [
        ...['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as unknown[]) : [])),
        s.then, s.else, s['x-expect'],
      ].filter(isObject),
    )],
  ); // prettier-ignore
}

/** The schemas of a property, an element or a map value below the given ones. */
function below(schemas: Schema[], key: string | number): Schema[] {
  const found: unknown[] = [];
  for (const s of schemas) {
    if (typeof key === 'number') {
      found.push(Array.isArray(s.prefixItems) ? s.prefixItems[key] : undefined, s.items);
      continue;
    }
    const named = isObject(s.properties) ? s.properties[key] : undefined;
    found.push(named ?? s.additionalProperties);
    if (isObject(s.patternProperties))
      for (const [pattern, schema] of Object.entries(s.patternProperties))
        if (safeTest(pattern, key)) found.push(schema);
  }
  return found.filter(isObject);
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

/** Whether a value is one the schemas in force name as a constant (`const`, `enum`): no one's. */
const constant = (schemas: Schema[], value: unknown) =>
  schemas.some((s) => s.const === value || (Array.isArray(s.enum) && s.enum.includes(value)));

const patternsOf = (schemas: Schema[]) =>
  schemas.map((s) => s.pattern).filter((p): p is string => typeof p === 'string');

/** A number keeps its type, its sign and, when whole, its count of digits: they become ones. */
function maskNumber(value: number): number {
  const digits = String(Math.abs(value));
  return Number.isInteger(value) && /^\d+$/.test(digits) ? Math.sign(value) * Number(maskText(digits)) : 1.5;
}

/** Values shorter than this are left where they appear unmarked: they match ordinary text. */
const MIN_ECHO_LENGTH = 4;

/** A value a text may repeat, as is and as a URL's query writes it. */
type Echo = [raw: string, encoded: string];

const echoesOf = (values: Iterable<string>): Echo[] =>
  [...new Set(values)]
    .filter((v) => v.length >= MIN_ECHO_LENGTH)
    .sort((a, b) => b.length - a.length)
    .map((v) => [v, encodeURIComponent(v)]);

/** How a body is read: which of its leaves are personal, and what it may repeat of them. */
interface Reading {
  /** Every string not a constant is personal: an error body, a body the contract does not describe. */
  everyString: boolean;
  /** Every number not a constant is personal: a body the contract does not describe. */
  everyNumber: boolean;
  /** The values of personal fields met so far. */
  found: Set<string>;
  /** Personal values and values the request carried, longest first, each as is and percent-encoded. */
  echoes: Echo[];
}

const reading = (found = new Set<string>()): Reading => ({
  everyString: false,
  everyNumber: false,
  found,
  echoes: [],
});

/** A personal value made anonymous: every leaf replaced (a constant aside), the structure and the keys kept. */
function anonymous(value: unknown, schemas: Schema[], r: Reading): unknown {
  if ((typeof value === 'string' || typeof value === 'number') && constant(schemas, value)) return value;
  if (typeof value === 'string') {
    r.found.add(value);
    return placeholder(value, patternsOf(schemas));
  }
  if (typeof value === 'number') return maskNumber(value);
  if (typeof value === 'boolean') return false;
  if (Array.isArray(value)) return value.map((v, i) => anonymous(v, inForce(below(schemas, i)), r));
  if (isObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [keyOf(k, r), anonymous(v, inForce(below(schemas, k)), r)]),
    );
  return value;
}

/** A text with every echo in it, as is or percent-encoded (a URL's query), replaced by its placeholder. */
function withoutEchoes(text: string, echoes: Echo[]): string {
  let out = text;
  for (const [raw, encoded] of echoes) {
    if (!out.includes(raw) && !out.includes(encoded)) continue;
    const masked = placeholder(raw);
    out = out.split(raw).join(masked).split(encoded).join(encodeURIComponent(masked));
  }
  return out;
}

// A key that is itself an address, an identifier or an instant (a map by person) is a value.
const VALUE_KEYS = new Set(['email', 'uuid', 'ipv4', 'ipv6', 'date-time', 'date']);

/** A key as kept: personal values in it masked; in a body read string by string, a key of a value's form too. */
function keyOf(key: string, r: Reading): string {
  if (r.everyString && formatsOf(key).some((f) => VALUE_KEYS.has(f))) return placeholder(key);
  return r.found.size > 0 ? withoutEchoes(key, echoesOf(r.found)) : key;
}

const personal = (schemas: Schema[]) => schemas.some((s) => s[PERSONAL] === true);

/** Whether an object's schemas name a personal field: then the fields they do not name are personal too. */
const holdsPersonal = (schemas: Schema[]) =>
  schemas.some(
    (s) =>
      isObject(s.properties) &&
      Object.values(s.properties).some((p) => personal(inForce([p].filter(isObject)))),
  );

function walk(value: unknown, schemas: Schema[], r: Reading): unknown {
  const here = inForce(schemas);
  if (personal(here)) return anonymous(value, here, r);
  if (typeof value === 'string') {
    if (constant(here, value)) return value;
    return r.everyString ? placeholder(value, patternsOf(here)) : withoutEchoes(value, r.echoes);
  }
  if (typeof value === 'number') return r.everyNumber && !constant(here, value) ? maskNumber(value) : value;
  if (Array.isArray(value)) return value.map((v, i) => walk(v, below(here, i), r));
  if (!isObject(value)) return value;
  const guarded = holdsPersonal(here);
  const named = (k: string) => here.some((s) => isObject(s.properties) && k in s.properties);
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      keyOf(k, r),
      guarded && !named(k) ? anonymous(v, [], r) : walk(v, below(here, k), r),
    ]),
  );
}

/**
 * The body with the values of every field its schema marks `x-personal` made anonymous, and of
 * every field the schema does not name in an object that holds one (a service may say more of a
 * person than its contract shows).
 */
export function withoutPersonal(body: unknown, schema: unknown, found = new Set<string>()): unknown {
  return walk(body, isObject(schema) ? [schema] : [], reading(found));
}

/** How a body is to be read besides its schema. */
export interface ScrubOptions {
  /** An error body (a status of 400 or more): it may echo what the caller sent, so its strings are personal. */
  error?: boolean;
  /** What the request carried (its query, path parameters, headers): masked wherever the body repeats it. */
  sent?: string[];
}

/**
 * A body as the store keeps it: personal values replaced by placeholders of their form (and
 * wherever else the body repeats them, or repeats what the request carried), then every secret
 * replaced by its variable's name, as the reports show it. In an error body every string is
 * personal unless its schema makes it a constant (`enum`, `const`); numbers and booleans stay. A
 * body without a schema (a status the contract does not document) has its numbers masked too; its
 * keys and structure stay. Undefined when the redacted text is no longer JSON (a secret that held a quote).
 */
export function scrub(
  body: unknown,
  schema: unknown,
  redactor: Redactor,
  options: ScrubOptions = {},
): unknown {
  const schemas = isObject(schema) ? [schema] : [];
  const undescribed = schema === undefined;
  const r = { ...reading(), everyString: undescribed || options.error === true, everyNumber: undescribed };
  // A secret the request carried stays for the redactor: `$NAME`, as the reports show it.
  const secrets = new Set(redactor.values());
  const sent = (options.sent ?? []).filter((v) => !secrets.has(v));
  r.echoes = echoesOf(sent);
  let kept = walk(body, schemas, r);
  // Personal values met on the way are masked wherever else the body repeats them: once more, with them.
  if (r.found.size > 0) {
    r.echoes = echoesOf([...r.found, ...sent]);
    kept = walk(body, schemas, r);
  }
  const text = JSON.stringify(kept);
  try {
    return JSON.parse(redactor.text(text)) as unknown;
  } catch {
    return undefined;
  }
}
