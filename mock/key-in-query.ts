/**
 * The key in a query string, as the mock sees it everywhere: a parameter named `apiKey`, whatever
 * its case or escapes. `requestUrl` and redirects leave it out; the request log masks its value.
 */

/** Whether a query pair (`name=value` as written) names the key. */
export function isKeyPair(pair: string): boolean {
  const [name = ''] = pair.split('=', 1);
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    // A malformed escape is compared as it came.
  }
  return decoded.trim().toLowerCase() === 'apikey';
}

/** The query string (without its `?`) less every key parameter, as written: `?a=1`, or ''. */
export function withoutKey(rawQuery: string): string {
  // Most queries name no key at all, even escaped: they are kept as they came, without a split.
  if (!rawQuery.includes('%') && !/apikey/i.test(rawQuery)) return rawQuery === '' ? '' : `?${rawQuery}`;
  const kept = rawQuery.split('&').filter((pair) => pair !== '' && !isKeyPair(pair));
  return kept.length > 0 ? `?${kept.join('&')}` : '';
}

/** A request target (path and query) with every key parameter's value shown as `mask`. */
export function maskedTarget(target: string, mask = '***'): string {
  const at = target.indexOf('?');
  if (at === -1) return target;
  const pairs = target
    .slice(at + 1)
    .split('&')
    .map((pair) => (isKeyPair(pair) ? `${pair.split('=', 1)[0]}=${mask}` : pair));
  return `${target.slice(0, at)}?${pairs.join('&')}`;
}

/** Whether a request target (path and query) carries a key parameter. */
export function hasKeyParameter(target: string): boolean {
  const at = target.indexOf('?');
  return (
    at !== -1 &&
    target
      .slice(at + 1)
      .split('&')
      .some(isKeyPair)
  );
}
