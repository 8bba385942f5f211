/** Rewrites of JSON bodies that stay within what the interface leaves open. Pure functions. */

export interface JsonRewrite {
  /** Origin pairs: a string that starts with `from` starts with `to` instead. */
  origins: readonly (readonly [from: string, to: string])[];
  extraFields: boolean;
  reorderKeys: boolean;
  secondsTimestamps: boolean;
}

/** The unknown field added to every object. */
export const EXTRA_FIELD = 'x_extra';
export const extraValue = (): unknown => ({ nested: [1] });

const WITH_MILLISECONDS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d{3}Z$/;
/** Keys whose values are URLs to follow exactly as given (the feed's `requestUrl` and `next` links). */
const KEPT_AS_GIVEN = new Set(['requestUrl', 'href']);

function rewriteString(value: string, rewrite: JsonRewrite, key: string | undefined): string {
  for (const [from, to] of rewrite.origins)
    if (value === from || value.startsWith(`${from}/`) || value.startsWith(`${from}?`)) {
      value = to + value.slice(from.length);
      break;
    }
  if (rewrite.secondsTimestamps && !(key !== undefined && KEPT_AS_GIVEN.has(key)))
    value = value.replace(WITH_MILLISECONDS, '$1Z');
  return value;
}

/** Applies the rewrites at every level, array items included. */
export function rewriteJson(value: unknown, rewrite: JsonRewrite, key?: string): unknown {
  if (typeof value === 'string') return rewriteString(value, rewrite, key);
  if (Array.isArray(value)) return value.map((item) => rewriteJson(item, rewrite, key));
  if (value === null || typeof value !== 'object') return value;
  let entries = Object.entries(value).map(([k, v]): [string, unknown] => [k, rewriteJson(v, rewrite, k)]);
  if (rewrite.extraFields && !(EXTRA_FIELD in value)) entries.push([EXTRA_FIELD, extraValue()]);
  if (rewrite.reorderKeys) entries = entries.reverse();
  return Object.fromEntries(entries);
}

/**
 * The image service's `debug` answer with `appliedTransform` as a URL string (the interface does
 * not show that shape): the `raw` URL that applies the same transform.
 */
export function transformAsString(body: unknown, imagesUrl: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const applied = record.appliedTransform;
  if (applied === null || typeof applied !== 'object' || typeof record.uri !== 'string') return body;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(applied))
    if (typeof value === 'string' || typeof value === 'number') query.set(name, String(value));
  const url = `${imagesUrl}/images/raw/${encodeURIComponent(record.uri)}?${query.toString()}`;
  return { ...record, appliedTransform: url };
}
