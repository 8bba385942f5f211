import { atConfiguredOrigin, secretsFor, secretsOf, withQueryKey, type Secrets } from './credentials.ts';
import { curlLine, MIN_SECRET_LENGTH, type Redactor } from './redact.ts';
import type { CallOptions, Target } from './types.ts';

/** One call on its way: where it is, what it carries, and what it has been through. */
export interface Call {
  method: string;
  url: string;
  options: CallOptions;
  secrets: Secrets;
  body: string | undefined;
  redactor: Redactor;
  /** Whether the credentials still go with it (no redirect to an origin they may not go to). */
  carry: boolean;
  redirects: string[];
  throttled: number;
  retried: boolean;
  /** The outage it met (502, 503, 504): when it began, the next pause, and whether the service was seen up meanwhile. */
  outage?: { began: number; status: number; pauseS: number; seenUp: boolean };
}

/** A call ready to go: its credentials, its body as text, and a redactor that knows what it sends. */
export function prepareCall(
  method: string,
  url: string,
  options: CallOptions,
  target: Target,
  redactor: Redactor,
): Call {
  const secrets = secretsOf(options, target.key);
  const body =
    options.body === undefined || typeof options.body === 'string'
      ? options.body
      : JSON.stringify(options.body);
  // Keys and tokens sent must never come back; short fuzzed values would match by chance.
  const sent = [secrets.headerKey, secrets.queryKey, secrets.token].filter(
    (s): s is string => !!s && s.length >= MIN_SECRET_LENGTH,
  );
  return {
    method,
    url,
    options,
    secrets,
    body,
    redactor: redactor.with(sent.map((value) => ({ value, name: 'SENT_SECRET' }))),
    // A URL of another origin (a link in a body, say) never gets the credentials.
    carry: atConfiguredOrigin(url, target),
    redirects: [],
    throttled: 0,
    retried: false,
  };
}

/** The request as it goes on the wire now: credentials only while they may go where it goes. */
export function wireRequest(
  call: Call,
  target: Target,
): { url: string; headers: Record<string, string>; curl: string } {
  const { carry, options, body } = call;
  const secrets: Secrets = carry ? secretsFor(call.url, call.secrets, target) : {};
  const written: Record<string, string> = { ...options.headers, ...target.headers };
  if (secrets.headerKey !== undefined) written['X-Api-Key'] = secrets.headerKey;
  if (secrets.token !== undefined)
    written.Authorization = `${options.form?.authScheme ?? 'Bearer'} ${secrets.token}`;
  const typed = Object.keys(written).some((name) => name.toLowerCase() === 'content-type');
  if (body !== undefined && typeof options.body !== 'string' && !typed)
    written['Content-Type'] = 'application/json';
  const names = options.form?.headerNames;
  const headers = names
    ? Object.fromEntries(
        Object.entries(written).map(([k, v]) => [names === 'upper' ? k.toUpperCase() : k.toLowerCase(), v]),
      )
    : written;
  const url = withQueryKey(call.url, secrets.queryKey);
  const curl = curlLine(
    { method: call.method, url, headers, body, insecure: target.insecureTls },
    call.redactor,
  );
  return { url, headers, curl };
}
