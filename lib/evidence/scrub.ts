import type { ValidateFunction } from 'ajv';
import { ajv } from '../contract/ajv.ts';
import { isObject } from '../contract/properties.ts';
import type { Redactor } from '../client/redact.ts';

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

/**
 * A placeholder of the same type and form: each letter becomes `a` (a to f, so hexadecimal stays
 * hexadecimal) or `x`, in its case; each digit `1` (an IPv4 octet stays an octet); the rest stays.
 * Lengths, separators and character classes survive, so a bound or a pattern is still decidable.
 */
export function maskText(value: string): string {
  // A URL keeps its scheme: `https://` says nothing of anyone, and a pattern on it stays decidable.
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  return (
    scheme +
    value.slice(scheme.length).replace(/\p{L}|\p{Nd}/gu, (c) => {
      if (/\p{Nd}/u.test(c)) return '1';
      const lower = c.toLowerCase();
      const letter = /[a-f]/.test(lower) ? 'a' : 'x';
      return c !== lower ? letter.toUpperCase() : letter;
    })
  );
}

/** A fixed value of a format, for a format the mask does not keep (a timestamp's `T`, say). */
const FORMAT_PLACEHOLDERS: Record<string, string> = {
  'date-time': '2000-01-01T00:00:00.000Z',
  date: '2000-01-01',
  time: '00:00:00Z',
  email: 'person@example.org',
  'idn-email': 'person@example.org',
  uri: 'https://example.org/',
  'uri-reference': 'https://example.org/',
  iri: 'https://example.org/',
  hostname: 'example.org',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uuid: '00000000-0000-4000-8000-000000000000',
};

const formatValidators = new Map<string, ValidateFunction>();

/** The masked text, or a format's placeholder where the value had the format and its mask has not. */
function placeholderText(value: string, schemas: Schema[]): string {
  const masked = maskText(value);
  for (const s of schemas) {
    const format = s.format;
    if (typeof format !== 'string' || !(format in FORMAT_PLACEHOLDERS)) continue;
    let check = formatValidators.get(format);
    if (!check) {
      check = ajv.compile({ type: 'string', format });
      formatValidators.set(format, check);
    }
    if (check(value) && !check(masked)) return FORMAT_PLACEHOLDERS[format]!;
  }
  return masked;
}

/** A personal value made anonymous: every leaf replaced, the structure and the keys kept. */
function anonymous(value: unknown, schemas: Schema[], found: Set<string>): unknown {
  if (typeof value === 'string') {
    found.add(value);
    return placeholderText(value, schemas);
  }
  // A number keeps its type, its sign and, when whole, its count of digits: they become ones.
  if (typeof value === 'number')
    return Number.isInteger(value) ? Math.sign(value) * Number(maskText(String(Math.abs(value)))) : 1.5;
  if (typeof value === 'boolean') return false;
  if (Array.isArray(value)) return value.map((v, i) => anonymous(v, inForce(below(schemas, i)), found));
  if (isObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, anonymous(v, inForce(below(schemas, k)), found)]),
    );
  return value;
}

const personal = (schemas: Schema[]) => schemas.some((s) => s[PERSONAL] === true);

/** Whether an object's schemas name a personal field: then the fields they do not name are personal too. */
const holdsPersonal = (schemas: Schema[]) =>
  schemas.some(
    (s) =>
      isObject(s.properties) &&
      Object.values(s.properties).some((p) => personal(inForce([p].filter(isObject)))),
  );

/**
 * The body with the values of every field its schema marks `x-personal` made anonymous, and of
 * every field the schema does not name in an object that holds one (a service may say more of a
 * person than its contract shows).
 */
export function withoutPersonal(body: unknown, schema: unknown, found = new Set<string>()): unknown {
  const walk = (value: unknown, schemas: Schema[]): unknown => {
    const here = inForce(schemas);
    if (personal(here)) return anonymous(value, here, found);
    if (Array.isArray(value)) return value.map((v, i) => walk(v, below(here, i)));
    if (!isObject(value)) return value;
    const guarded = holdsPersonal(here);
    const named = (k: string) => here.some((s) => isObject(s.properties) && k in s.properties);
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        guarded && !named(k) ? anonymous(v, [], found) : walk(v, below(here, k)),
      ]),
    );
  };
  return walk(body, isObject(schema) ? [schema] : []);
}

/** Personal values this short are left where they appear unmarked: they match ordinary text. */
const MIN_ECHO_LENGTH = 4;

const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * A body as the store keeps it: personal fields anonymous (and their values wherever else the body
 * repeats them), then every secret replaced by its variable's name, as the reports show it.
 * Undefined when the redacted text is no longer JSON (a secret that held a quote).
 */
export function scrub(body: unknown, schema: unknown, redactor: Redactor): unknown {
  const found = new Set<string>();
  let text = JSON.stringify(withoutPersonal(body, schema, found));
  const echoes = [...found].filter((v) => v.length >= MIN_ECHO_LENGTH).sort((a, b) => b.length - a.length);
  for (const value of echoes) text = text.split(escaped(value)).join(escaped(maskText(value)));
  try {
    return JSON.parse(redactor.text(text)) as unknown;
  } catch {
    return undefined;
  }
}
