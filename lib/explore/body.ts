import type { Operation } from '../contract/index.ts';
import type { CaseKind, CaseRequest } from './types.ts';
import { invalidVariants, representative, validVariants, type Schema } from './values.ts';

/** One way to vary a request body, before it becomes a case. */
export interface BodyVariant {
  kind: CaseKind;
  /** `body`, or `body.<property path>`. */
  parameter: string;
  variant: string;
  body: CaseRequest['body'];
  /** Whether the contract says the body is refused: required and missing, or a required property wrong. */
  refused: boolean;
}

type Json = Record<string, unknown>;

/** How deep into a body the exploration varies properties: the search's `resultContext.maxResults`. */
const DEPTH = 2;

function media(op: Operation): { schema: Schema; example: unknown } | undefined {
  const content = op.requestBody?.content?.['application/json'];
  if (!content?.schema) return undefined;
  const schema = content.schema as Schema;
  const examples = Object.values(content.examples ?? {}).map((e) => (e as { value?: unknown }).value);
  return { schema, example: examples.find((e) => e !== undefined) ?? schema.examples?.[0] };
}

/** The required properties of a body, each as `from` has it or at its representative value. */
function minimal(schema: Schema, from: unknown, now: number): Json {
  const out: Json = {};
  for (const name of schema.required ?? []) {
    const property = schema.properties?.[name];
    if (!property) continue;
    const given = (from as Json | undefined)?.[name];
    out[name] =
      property.type === 'object'
        ? minimal(property, given, now)
        : (given ?? representative(property, [], now));
  }
  return out;
}

/** The body a valid request carries: the contract's example, else the required properties. */
export function bodyBase(op: Operation, now: number): CaseRequest['body'] {
  const found = media(op);
  if (!found) return undefined;
  return { json: structuredClone(found.example ?? minimal(found.schema, undefined, now)) };
}

function at(body: unknown, path: string[]): unknown {
  return path.reduce<unknown>((node, name) => (node as Json | undefined)?.[name], body);
}

/** A copy of `body` with the property at `path` set (undefined: removed), its parents made as needed. */
export function withProperty(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone((body ?? {}) as Json);
  let node = copy;
  for (const name of path.slice(0, -1)) {
    if (typeof node[name] !== 'object' || node[name] === null) node[name] = {};
    node = node[name] as Json;
  }
  if (value === undefined) delete node[path[path.length - 1]!];
  else node[path[path.length - 1]!] = value;
  return copy;
}

/** Every property to `DEPTH`, with whether it and each of its parents are required. */
function properties(schema: Schema, path: string[] = [], required = true): [string[], Schema, boolean][] {
  if (path.length >= DEPTH) return [];
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const here = [...path, name];
    const isRequired = required && (schema.required ?? []).includes(name);
    return [
      [here, property, isRequired] as [string[], Schema, boolean],
      ...properties(property, here, isRequired),
    ];
  });
}

/**
 * The body's cases: only the required properties; each property at its bounds and enum values, of
 * another type, out of range, and missing where required; no body, and a body that is not JSON.
 */
export function bodyVariants(op: Operation, now: number): BodyVariant[] {
  const found = media(op);
  const base = bodyBase(op, now);
  if (!found || !base || !('json' in base)) return [];
  const { schema } = found;
  const bodyRequired = op.requestBody?.required === true;
  const out: BodyVariant[] = [];
  const json = (value: unknown) => ({ json: value });
  const bare = minimal(schema, base.json, now);
  if (JSON.stringify(bare) !== JSON.stringify(base.json))
    out.push({
      kind: 'positive',
      parameter: 'body',
      variant: 'required-only',
      body: json(bare),
      refused: false,
    });
  for (const [path, property, required] of properties(schema)) {
    const parameter = `body.${path.join('.')}`;
    const current = at(base.json, path);
    for (const v of validVariants(property, [], now)) {
      // The representative value is the base's own, or no edge at all: only edges make cases.
      if (
        v.variant === 'example' ||
        v.variant === 'generated' ||
        JSON.stringify(v.value) === JSON.stringify(current)
      )
        continue;
      out.push({
        kind: 'positive',
        parameter,
        variant: v.variant,
        body: json(withProperty(base.json, path, v.value)),
        refused: false,
      });
    }
    const refused = bodyRequired && required;
    for (const v of invalidVariants(property, 'body', current ?? representative(property, [], now)))
      out.push({
        kind: 'negative',
        parameter,
        variant: v.variant,
        body: json(withProperty(base.json, path, v.value)),
        refused,
      });
    if (required)
      out.push({
        kind: 'negative',
        parameter,
        variant: 'missing',
        body: json(withProperty(base.json, path, undefined)),
        refused,
      });
  }
  if (bodyRequired)
    out.push({ kind: 'negative', parameter: 'body', variant: 'missing', body: undefined, refused: true });
  out.push({ kind: 'negative', parameter: 'body', variant: 'not-json', body: { raw: '{"' }, refused: true });
  return out;
}
