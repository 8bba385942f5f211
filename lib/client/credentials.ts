import type { CallOptions, Target } from './types.ts';

/**
 * Where credentials may go. The key and the token go only to the origins configured for them, and
 * never down from https to http: the Fetch standard and curl drop them the same way on a redirect.
 */

export interface Secrets {
  headerKey?: string;
  queryKey?: string;
  token?: string;
}

/** The URL with the key as query parameter `apiKey`, unless the URL carries one already. */
export function withQueryKey(url: string, key: string | undefined): string {
  if (key === undefined) return url;
  const parsed = new URL(url);
  if (parsed.searchParams.has('apiKey')) return url;
  return `${url}${parsed.search ? '&' : '?'}apiKey=${encodeURIComponent(key)}`;
}

/** The key and token a call sends, by where the options place them. */
export function secretsOf(options: CallOptions, key: string): Secrets {
  const placement = options.key ?? 'header';
  return {
    headerKey: placement === 'header' ? key : typeof placement === 'object' ? placement.header : undefined,
    queryKey: placement === 'query' ? key : typeof placement === 'object' ? placement.query : undefined,
    token: options.token,
  };
}

/** Whether credentials go on from `from` to a redirect's target `to`. */
export function mayCarrySecrets(from: string, to: URL, target: Target): boolean {
  if (new URL(from).protocol === 'https:' && to.protocol !== 'https:') return false;
  const origins = [target.baseUrl, target.httpBaseUrl, target.imagesUrl]
    .filter((u): u is string => !!u)
    .map((u) => new URL(u).origin);
  return origins.includes(to.origin);
}
