import type { ErrorObject } from 'ajv';

/** One broken keyword, said as a reader says it, with where it broke. */
export interface Broken {
  /** The schema path Ajv reports, for the rule that owns it. */
  schemaPath: string;
  keyword: string;
  /** Where in the body, indices folded (`notifications[].id`): the same place on every page. */
  place: string;
  /** `notifications has 201 items, at most 200 allowed (maxItems)`. */
  text: string;
}

/** `/notifications/3/id` → `notifications[3].id` (or `notifications[].id` folded); `` → `the body`. */
function nameOf(instancePath: string, fold: boolean): string {
  const parts = instancePath.split('/').slice(1);
  const name = parts
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${fold ? '' : p}]` : out ? `${out}.${p}` : p), '');
  return name || 'the body';
}

function valueAt(body: unknown, instancePath: string): unknown {
  return instancePath
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], body);
}

const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/** What a keyword's failure says of the value: the count, the type, the missing field. */
function said(error: ErrorObject, body: unknown): string {
  const value = valueAt(body, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const count = Array.isArray(value) ? value.length : undefined;
  switch (error.keyword) {
    case 'maxItems':
      return `has ${count} items, at most ${String(params.limit)} allowed`;
    case 'minItems':
      return `has ${count} items, at least ${String(params.limit)} needed`;
    case 'required':
      return `lacks ${String(params.missingProperty)}`;
    case 'type':
      return `is ${kind(value)}, not ${String(params.type)}`;
    case 'const':
      return `is ${JSON.stringify(value)}, not ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

/**
 * Ajv's errors as broken keywords: an `if` only says its `then` failed, and the branches of a
 * failed `anyOf` or `oneOf` are its own failure, so neither is counted again.
 */
export function brokenKeywords(errors: ErrorObject[], body: unknown): Broken[] {
  const choices = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const inChoice = (e: ErrorObject) =>
    choices.some((c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`));
  return errors
    .filter((e) => e.keyword !== 'if' && !inChoice(e))
    .map((e) => ({
      schemaPath: e.schemaPath,
      keyword: e.keyword,
      place: `${nameOf(e.instancePath, true)} (${e.keyword})`,
      text: `${nameOf(e.instancePath, false)} ${said(e, body)} (${e.keyword})`,
    }));
}
