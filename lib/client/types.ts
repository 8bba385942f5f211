import type { TargetKind } from '../config.ts';
import type { CheckFailure } from '../checks/index.ts';

/** Where the suite sends its requests. */
export interface Target {
  kind: TargetKind;
  baseUrl: string;
  httpBaseUrl?: string;
  imagesUrl?: string;
  /** Sent as `source` on every request to the image service that names none (CLM_IMAGE_SOURCE). */
  imageSource?: string;
  key: string;
  /**
   * A throwaway key, whitelisted but expendable, the only one sent over plain HTTP to a live service
   * (TLS-01 with a key); the real key and token never go there.
   */
  plainHttpKey?: string;
  /** The bundled mock's certificate is made at start, so it is not checked. */
  insecureTls: boolean;
  /** Headers every request to this target carries besides its own (a test's, given by whoever runs it). */
  headers?: Record<string, string>;
}

/**
 * How a request is written on the wire, where HTTP (RFC 9110) and URI syntax (RFC 3986) allow
 * more than one way to say the same thing. Each is the same request as the plain form.
 */
export interface RequestForm {
  /** Header field names in this case (RFC 9110 §5.1: field names are case-insensitive); as written by default. */
  headerNames?: 'lower' | 'upper';
  /** The `Authorization` scheme as written (RFC 9110 §11.1: the scheme is case-insensitive); `Bearer` by default. */
  authScheme?: string;
  /** Query parameters given twice, with the same value. */
  repeated?: string[];
  /** Path and query parameters with every octet percent-encoded (`%61` for `a`, RFC 3986 §6.2.2.2). */
  percentEncoded?: string[];
  /** Path and query parameters with every octet percent-encoded in lower-case hex (`%2d`, RFC 3986 §6.2.2.1). */
  lowerHex?: string[];
  /** A `?` with no query after it, where the request has none. */
  emptyQuery?: boolean;
  /** An `&` after the query's last pair. */
  trailingAmpersand?: boolean;
  /** The request-target in absolute-form, `https://host/path?query` (RFC 9112 §3.2.2). */
  absoluteForm?: boolean;
  /** The body in chunks, with no Content-Length (RFC 9112 §7.1). */
  chunked?: boolean;
}

/** How a request carries the API key. */
export type KeyPlacement = 'header' | 'query' | 'none' | { header?: string; query?: string };

export interface CallOptions {
  path?: Record<string, string>;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** A JSON value, or a string sent as it is. */
  body?: unknown;
  key?: KeyPlacement;
  /** A bearer token for `Authorization`. */
  token?: string;
  /** Send to the plain-HTTP base instead of the HTTPS one. */
  plainHttp?: boolean;
  /** How the request is written on the wire (header-name case, repeated or percent-encoded parameters). */
  form?: RequestForm;
  /** `safety` for deliberately odd requests: only no 5xx, JSON, no secret echoed. */
  checks?: 'all' | 'safety';
  /** Follow redirects, re-attaching the key (AUTH-05). Default true. */
  followRedirects?: boolean;
  /** Wait out a 429 and retry (AUTH-06). Default true; false to see the 429 itself. */
  retryThrottled?: boolean;
  /** Another method to the operation's URL (HEAD, OPTIONS, one the contract does not list). */
  method?: string;
  /** false: no `source` added to a request to the image service, to see the answer without one. */
  imageSource?: false;
  /**
   * The rules that state what status this request must get (NOTIF-02 of a `since` in a form RFC
   * 3339 allows, DEPR-01 of a deprecated endpoint): a 5xx to it fails them as well as HTTP-04.
   */
  decides?: readonly string[];
}

export interface RawOptions extends Omit<CallOptions, 'path' | 'query' | 'plainHttp'> {
  method?: string;
  /** An absolute URL, used exactly as given, or a path below the base URL written as it is. */
  url: string;
  /** The base a relative `url` is below: the main service (default) or the image service. */
  base?: 'main' | 'images';
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  /** The body as bytes, for images. */
  bytes: Buffer;
  /** The final URL, without the key. */
  url: string;
  operation: string | undefined;
  /** Every URL that answered with a redirect on the way, without the key. */
  redirects: string[];
  /** Whether a redirect led to an origin the key and token may not go to, so they were left off. */
  secretsDropped: boolean;
  curl: string;
  /**
   * The status, when a live service answered a deprecated operation with 404 or 410 and a JSON
   * body: to a request for data the service has, the operation is gone (DEPR-01), reported once
   * and never failed (`ApiClient.retired`).
   */
  gone?: number;
}

/** A check failed: the message says what was expected, what came, and how to reproduce it. */
export class ApiCheckError extends Error {
  constructor(
    readonly failures: CheckFailure[],
    readonly curl: string,
    summary: string,
  ) {
    const lines = failures.map(
      (f) =>
        `${f.title} [${f.rules.join(', ') || 'contract'}]\n` +
        `  Expected: ${f.expected}\n  Received: ${f.received}`,
    );
    super(`${lines.join('\n')}\n  ${summary}\nReproduce with:\n  ${curl}`);
    this.name = 'ApiCheckError';
  }
}

/** How far the client goes for one call: its share of the run's bounds. */
export interface ClientLimits {
  requestTimeoutMs: number;
  maxBodyBytes: number;
  /** The longest Retry-After waited out, in seconds. */
  maxRetryAfter: number;
  /** Seconds one outage is waited out before the test is not run (`CLM_OUTAGE_WAIT`). */
  outageWait: number;
}

/** An answer whose body cannot be read: a failure of the service, not a network blip to retry. */
export function undecodable(what: string, curl: string): ApiCheckError {
  const failure = {
    check: 'bodyDecodable',
    title: 'Body not in its Content-Encoding',
    rules: ['HTTP-01'],
    expected: 'a body encoded as its Content-Encoding header says',
    received: 'bytes that do not decode',
  };
  return new ApiCheckError([failure], curl, what);
}
