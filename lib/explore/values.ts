import fc from 'fast-check';
import { sinceForms } from '../arbitraries/since.ts';
import type { SchemaView } from '../arbitraries/values.ts';
import { ajv } from '../contract/ajv.ts';
import { HOUR, iso } from '../time.ts';

/** The part of a JSON Schema the exploration reads: the value forms' view. */
export type Schema = SchemaView;

/** A value and the name of the way it was chosen: `minimum`, `enum:gif`, `wrong-type`… */
export interface Variant {
  variant: string;
  value: unknown;
  /**
   * A form the format allows that the interface does not promise to take (a lower-case `t`):
   * the mock, which implements every decision, accepts it; a live service is held to no 5xx.
   */
  decided?: boolean;
}

/** Where a value goes: in a URL or a header every value is text, so a string cannot have a wrong type. */
export type Place = 'path' | 'query' | 'header' | 'body';

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

function valid(schema: Schema, value: unknown): boolean {
  return ajv.validate(schema, value) === true;
}

/** Generated values the contract's formats allow whatever its prose adds. */
function generated(schema: Schema, now: number): unknown {
  // An hour before now: not in the future, and inside any window the prose may give (90 days).
  if (schema.format === 'date-time') return iso(now - HOUR);
  return undefined;
}

/**
 * The one value a schema is best shown with: a generated value for a format whose examples date
 * (a `date-time`), else a valid example, the default, the const, the first enum value, the minimum.
 */
export function representative(schema: Schema, examples: unknown[], now: number): unknown {
  const made = generated(schema, now);
  if (made !== undefined) return made;
  const candidates = [
    ...examples,
    ...(schema.examples ?? []),
    schema.default,
    schema.const,
    schema.enum?.[0],
    schema.minimum,
  ];
  return candidates.find((value) => value !== undefined && valid(schema, value));
}

const matching = new Map<string, fc.Arbitrary<string>>();

/**
 * `fc.stringMatching` of a schema's pattern, made once a pattern: making it tokenises fast-check's
 * dangerous strings against every class of the pattern, which took half a second a run.
 */
export function stringMatching(pattern: string): fc.Arbitrary<string> {
  let made = matching.get(pattern);
  if (!made) matching.set(pattern, (made = fc.stringMatching(new RegExp(pattern))));
  return made;
}

/** How many values are drawn to find the forms of a format or a pattern: enough to meet each. */
const DRAWS = 200;

/**
 * Valid forms no example shows, drawn with fast-check from the seed: a `date-time` at other
 * precisions, in lower case, at a zero offset; each alternative of a pattern (`fc.stringMatching`),
 * one value per shape (`ff0000` and `ff0000,00ff00` for a tint of one colour or two).
 */
function drawnForms(schema: Schema, now: number, seed: number): Variant[] {
  if (schema.format === 'date-time') {
    const forms = new Map(fc.sample(sinceForms(now), { seed, numRuns: DRAWS }).map((f) => [f.form, f.value]));
    forms.delete('milliseconds');
    // Forms that differ in one way first: a refusal then says which way matters.
    const ways = (form: string) => form.split('+').length;
    return [...forms]
      .sort(([a], [b]) => ways(a) - ways(b) || a.localeCompare(b))
      .slice(0, 10)
      .map(([form, value]) => ({ variant: `date-time:${form}`, value, decided: true }));
  }
  if (!schema.pattern || typeOf(schema) !== 'string') return [];
  const shapes = new Map<string, string>();
  for (const value of fc.sample(stringMatching(schema.pattern), { seed, numRuns: DRAWS }))
    if (valid(schema, value)) shapes.set(value.replace(/[A-Za-z0-9]/g, 'x'), value);
  return [...shapes]
    .sort(([a], [b]) => a.length - b.length)
    .slice(0, 4)
    .map(([shape, value]) => ({ variant: `pattern:${shape.length}`, value }));
}

/**
 * Valid values at the schema's edges: each enum value, the const, the minimum and maximum, the
 * shortest and longest string; else its representative value (`example`), when it has one; and the
 * forms its format or pattern allows, drawn from `seed`.
 */
export function validVariants(schema: Schema, examples: unknown[], now: number, seed = 0): Variant[] {
  return [...edgeVariants(schema, examples, now), ...drawnForms(schema, now, seed)];
}

function edgeVariants(schema: Schema, examples: unknown[], now: number): Variant[] {
  const out: Variant[] = [];
  const type = typeOf(schema);
  if (schema.enum) for (const value of schema.enum) out.push({ variant: `enum:${String(value)}`, value });
  else if (schema.const !== undefined) out.push({ variant: 'const', value: schema.const });
  else if (type === 'integer' || type === 'number') {
    const step = type === 'integer' ? 1 : 0;
    const min =
      schema.minimum ?? (schema.exclusiveMinimum === undefined ? undefined : schema.exclusiveMinimum + step);
    const max =
      schema.maximum ?? (schema.exclusiveMaximum === undefined ? undefined : schema.exclusiveMaximum - step);
    if (min !== undefined) out.push({ variant: 'minimum', value: min });
    if (max !== undefined) out.push({ variant: 'maximum', value: max });
  } else if (type === 'string' && !schema.pattern && !schema.format) {
    if (schema.minLength !== undefined && schema.minLength > 1)
      out.push({ variant: 'min-length', value: 'a'.repeat(schema.minLength) });
    if (schema.maxLength !== undefined)
      out.push({ variant: 'max-length', value: 'a'.repeat(schema.maxLength) });
  } else if (type === 'boolean') {
    out.push({ variant: 'true', value: true }, { variant: 'false', value: false });
  }
  const kept = out.filter((v) => valid(schema, v.value));
  if (kept.length > 0) return kept;
  const value = representative(schema, examples, now);
  if (value === undefined) return [];
  return [{ variant: generated(schema, now) === undefined ? 'example' : 'generated', value }];
}

/** A value outside a format, one slip from a valid one where that is possible. */
function offFormat(format: string, near: unknown): unknown {
  const text = typeof near === 'string' ? near : undefined;
  if (format === 'date-time') return text ? text.slice(0, 10) : '2017-01-06';
  if (format === 'uuid' && text) return text.slice(0, -1);
  return `not-a-${format}`;
}

/**
 * Invalid values: of another type, below the minimum or above the maximum, outside the enum or the
 * const, off the pattern or the format, too short or too long. `near` is a valid value to slip from.
 */
export function invalidVariants(schema: Schema, place: Place, near: unknown): Variant[] {
  const out: Variant[] = [];
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number') {
    out.push({ variant: 'wrong-type', value: 'abc' });
    if (type === 'integer') out.push({ variant: 'not-integer', value: 1.5 });
    if (schema.minimum !== undefined) out.push({ variant: 'below-minimum', value: schema.minimum - 1 });
    if (schema.maximum !== undefined) out.push({ variant: 'above-maximum', value: schema.maximum + 1 });
  } else if (type === 'string') {
    if (place === 'body') out.push({ variant: 'wrong-type', value: 123 });
    if (schema.enum) out.push({ variant: 'not-in-enum', value: `${String(schema.enum[0])}-unlisted` });
    if (typeof schema.const === 'string')
      out.push({
        variant: 'not-const',
        value: schema.const.includes('/') ? 'text/plain' : `${schema.const}-other`,
      });
    if (schema.pattern)
      out.push({ variant: 'off-pattern', value: `~${typeof near === 'string' ? near : ''}` });
    if (schema.format) out.push({ variant: 'off-format', value: offFormat(schema.format, near) });
    // An empty path segment changes the route, not the parameter.
    if (schema.minLength !== undefined && schema.minLength > 0 && place !== 'path')
      out.push({ variant: 'too-short', value: 'a'.repeat(schema.minLength - 1) });
    if (schema.maxLength !== undefined)
      out.push({ variant: 'too-long', value: 'a'.repeat(schema.maxLength + 1) });
  } else if (type === 'boolean') {
    out.push({ variant: 'wrong-type', value: 'yes' });
  } else if (type === 'object' || type === 'array') {
    out.push({ variant: 'wrong-type', value: 'x' });
  }
  // A value the schema accepts after all (a format Ajv does not know) is no negative case.
  return out.filter(
    (v) =>
      !valid(schema, typeof v.value === 'string' && place !== 'body' ? coerce(schema, v.value) : v.value),
  );
}

/** A text value as the schema's type reads it, so a URL's `5` is the integer 5. */
function coerce(schema: Schema, text: string): unknown {
  const type = typeOf(schema);
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** A value as it goes in a URL or a header. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
