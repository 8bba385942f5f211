import type { ValidateFunction } from 'ajv';
import { isObject } from './properties.ts';

/**
 * `x-expect`: what the project expects beyond what the interface guarantees (a precision, a
 * pattern, an integer, a field the interface does not name, a decision). Its value is a schema of
 * the same dialect. The base validators ignore it, so a real response fails only where the
 * interface is broken; the strict variant derived here adds every expectation, and a miss is
 * reported as drift, with a warning, never as a failure.
 */

type Node = Record<string, unknown>;

// The keywords whose values are schemas. Anything else (`const`, `enum`, `examples`, …) is data,
// and a property that happens to be named `x-expect` is not an expectation.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMAS = new Set([
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contentSchema',
  'x-expect',
]);

/** The subschemas of a schema, with a function applied to each; other keywords are kept as they are. */
function mapSubschemas(schema: Node, apply: (child: unknown) => unknown): Node {
  const out: Node = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(keyword) && isObject(value))
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, apply(child)]));
    else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) out[keyword] = value.map(apply);
    else if (SCHEMAS.has(keyword)) out[keyword] = apply(value);
    else out[keyword] = value;
  }
  return out;
}

/** Whether a schema holds `x-expect` anywhere, expectations nested in expectations included. */
export function hasExpectation(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  if ('x-expect' in schema) return true;
  let found = false;
  mapSubschemas(schema, (child) => (found ||= hasExpectation(child)));
  return found;
}

function merged(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const { 'x-expect': expectation, ...base } = mapSubschemas(schema, merged);
  if (expectation === undefined) return base;
  if (!isObject(expectation)) return { ...base, allOf: [...list(base.allOf), expectation] };
  // `required` joins the parent's own: in strict mode Ajv refuses a `required` in an `allOf` entry
  // when the properties it names are declared by the parent.
  const { required, ...rest } = expectation;
  const out: Node = { ...base };
  if (Array.isArray(required)) out.required = [...new Set([...list(base.required), ...list(required)])];
  if (Object.keys(rest).length > 0) out.allOf = [...list(base.allOf), rest];
  return out;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

// One variant per schema object, so Ajv, which caches by schema object, compiles each only once.
const variants = new WeakMap<object, unknown>();

/**
 * The strict variant of a schema: every `x-expect` merged into the schema that holds it (an extra
 * `allOf` entry, its `required` joined to the parent's), recursively. The base schema is not changed.
 */
export function strictVariant<T>(schema: T): T {
  if (!isObject(schema)) return schema;
  let variant = variants.get(schema);
  if (variant === undefined) variants.set(schema, (variant = merged(schema)));
  return variant as T;
}

export interface ExpectationWarning {
  /** Where in the body, as a JSON pointer (`''` is the body itself). */
  path: string;
  message: string;
  /** The schema keyword's path, for the rule that owns it. */
  schemaPath: string;
}

/**
 * The warnings of a strict validator for a body: empty when the body meets every expectation.
 * Meant for a body the base validator has accepted, so each warning is drift from an expectation.
 */
export function expectationWarnings(validate: ValidateFunction, body: unknown): ExpectationWarning[] {
  if (validate(body)) return [];
  const seen = new Set<string>();
  const warnings: ExpectationWarning[] = [];
  for (const error of validate.errors ?? []) {
    const warning = {
      path: error.instancePath,
      message: error.message ?? `fails ${error.keyword}`,
      schemaPath: error.schemaPath,
    };
    const key = `${warning.path} ${warning.message}`;
    if (!seen.has(key)) warnings.push(warning);
    seen.add(key);
  }
  return warnings;
}

/**
 * The value a body's expectations judge: the parsed JSON, or, for a media type that is not JSON,
 * the text itself (an HTML error page the project does not expect, say). Undefined for a JSON media
 * type whose body did not parse: the schema check reports that.
 */
export function judgedBody(mediaType: string, json: unknown, text: string): unknown {
  if (json !== undefined) return json;
  return isJsonMediaType(mediaType) ? undefined : text;
}

/** `application/json`, `application/problem+json`, with or without parameters. */
export const isJsonMediaType = (mediaType: string): boolean => /json/i.test(mediaType.split(';')[0]!);

/** Whether a body is judged as text: a body that is not JSON, of a media type that is not JSON. */
const judgedAsText = (mediaType: string, body: unknown): body is string =>
  typeof body === 'string' && !isJsonMediaType(mediaType);

/**
 * The warnings of a body as lines: a JSON body's, or, for a body judged as text (not JSON), one line
 * saying that the project does not expect such a body here (an HTML error page, say).
 */
export function describeMisses(mediaType: string, body: unknown, warnings: ExpectationWarning[]): string[] {
  if (warnings.length === 0) return [];
  if (judgedAsText(mediaType, body)) {
    const why = [...new Set(warnings.map((w) => w.message))].join(', ');
    return [`a ${mediaType.split(';')[0]!.trim()} body, which the project does not expect here (${why})`];
  }
  return warnings.map((w) => `body${w.path} ${w.message}`);
}
