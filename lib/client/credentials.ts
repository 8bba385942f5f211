import type { CallOptions, Target } from './types.ts';

/**
 * Where credentials may go, whatever a URL's source (the configuration, a redirect, a link in a
 * body): the key and the token only over HTTPS to the origins configured for them, never down from
 * https to http (the Fetch standard and curl drop them the same way on a redirect). Against a live
 * service the real key and token never cross plain HTTP at all: there only the throwaway
 * CLM_PLAIN_HTTP_KEY goes, if one is configured.
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
  // A `?` with nothing after it (an empty query) takes the key as its first pair.
  const joiner = url.endsWith('?') ? '' : parsed.search ? '&' : '?';
  return `${url}${joiner}apiKey=${encodeURIComponent(key)}`;
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

/** The origins the service is configured at: the only ones credentials may go to. */
function configuredOrigins(target: Target): URL[] {
  return [target.baseUrl, target.httpBaseUrl, target.imagesUrl]
    .filter((u): u is string => !!u)
    .map((u) => new URL(u));
}

/** Whether a URL is at an origin the service is configured at. */
export function atConfiguredOrigin(url: string, target: Target): boolean {
  const { origin } = new URL(url);
  return configuredOrigins(target).some((o) => o.origin === origin);
}

/** Whether credentials go on from `from` to a redirect's target `to`. */
export function mayCarrySecrets(from: string, to: URL, target: Target): boolean {
  if (new URL(from).protocol === 'https:' && to.protocol !== 'https:') return false;
  return atConfiguredOrigin(to.href, target);
}

/**
 * The credentials as they may go to `url`. Over plain HTTP to a live service, the configured key
 * gives way to the plain-HTTP key (or to none) and no token goes; a value the call names itself
 * that is not the configured key (a refused key, a fuzzed one) is no secret and goes as it is.
 */
export function secretsFor(url: string, secrets: Secrets, target: Target): Secrets {
  if (target.kind !== 'live' || new URL(url).protocol === 'https:') return secrets;
  const swap = (value: string | undefined) => (value === target.key ? target.plainHttpKey : value);
  return { headerKey: swap(secrets.headerKey), queryKey: swap(secrets.queryKey), token: undefined };
}

/** Where a link found in a body is followed, and what the report says of it. */
export interface LinkDestination {
  url: string;
  /** The link named plain HTTP on a configured host: it is followed over HTTPS instead. */
  upgraded: boolean;
  /** The link names an origin that is not configured: it is followed without credentials. */
  foreign: boolean;
}

/**
 * A link of a body as the client follows it. A plain-HTTP link to a configured host (the real service
 * writes its links so) goes over HTTPS to the configured origin of that host; a link to any other
 * origin goes as written, and without credentials.
 */
export function linkDestination(link: string, target: Target): LinkDestination {
  const url = new URL(link);
  const configured = configuredOrigins(target);
  const secure = configured.filter((o) => o.protocol === 'https:');
  if (url.protocol === 'http:') {
    const plainBase = configured.find((o) => o.protocol === 'http:' && o.origin === url.origin);
    // The same host on HTTP's default port is the service itself (`http://api.ft.com/…`); another
    // port of that host is another server.
    const sameHost = url.port === '' ? secure.find((o) => o.hostname === url.hostname) : undefined;
    // The plain-HTTP base stands for the main service; otherwise the HTTPS origin of the same host.
    const to = plainBase && target.baseUrl.startsWith('https:') ? new URL(target.baseUrl) : sameHost;
    if (to) {
      const upgraded = `${to.origin}${url.pathname}${url.search}${url.hash}`;
      return { url: upgraded, upgraded: true, foreign: false };
    }
  }
  return { url: link, upgraded: false, foreign: !atConfiguredOrigin(link, target) };
}
