import { isObject } from '../contract/properties.ts';

/** JSON values and schemas as the gate reads them: their canonical text, their sameness, their types. */

export type Schema = Record<string, unknown>;

/** Keywords that describe a schema without changing which values it admits. */
export const ANNOTATIONS = new Set([
  'title',
  'description',
  'example',
  'examples',
  '$comment',
  'externalDocs',
  'xml',
  '$schema',
  '$id',
  '$anchor',
  '$defs',
  'definitions',
  'summary',
]);

/** A stable text of a JSON value: the same for the same value whatever the key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}
/**
 * Whether two JSON values are the same whatever the key order: what comparing their `canonical`
 * texts says, without writing them (a large unchanged subtree is walked, and is often one object).
 */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  if (isObject(a) || isObject(b)) return false;
  return (JSON.stringify(a) ?? 'undefined') === (JSON.stringify(b) ?? 'undefined');
}
/** A value as text for a message: a string as it is, anything else as JSON. */
export const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : canonical(value);

const TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

export function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return TYPES.includes(type) ? [type] : [type];
  if (Array.isArray(type) && type.length > 0) return type.map(asText);
  return undefined;
}
