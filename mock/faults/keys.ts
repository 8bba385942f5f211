import { fail } from '../handlers/respond.ts';
import type { Context, MockRequest, MockResponse } from '../types.ts';
import { onStatus, rewrite, switches, type Fault, SERVER_ERROR } from './fault.ts';

/** The key a request presents, as the pipeline reads it: the header first, then `?apiKey=`. */
function presentedKey(request: MockRequest): string | undefined {
  return request.headers['x-api-key'] ?? request.query.get('apiKey') ?? undefined;
}

/** Whether the key came in the query alone. */
function queryKeyOnly(request: MockRequest): boolean {
  return request.headers['x-api-key'] === undefined && request.query.has('apiKey');
}

/** The pipeline's own refusal of a key outside the whitelist. */
function refuseKey(context: Context): MockResponse {
  return fail(context, 403, 'The API key is not in the whitelist', 'KEY_INVALID');
}

/** Keys, transport, shared behaviour: faults that break the key rules (AUTH-*). */
export const KEYS_FAULTS: Fault[] = [
  {
    name: 'page-request-url-with-key',
    // A key come back, in the very place AUTH-07 names (requestUrl of the page endpoints); PAGE-02
    // states it of requestUrl as well.
    rule: 'AUTH-07',
    alsoBreaks: ['PAGE-02'],
    kind: 'value',
    description: 'requestUrl keeps the apiKey query parameter.',
    apply: rewrite(
      ['getPageMainContent'],
      onStatus(200, (b, req) => {
        const key = req.query.get('apiKey');
        if (key)
          b.requestUrl =
            `${String(b.requestUrl)}${String(b.requestUrl).includes('?') ? '&' : '?'}` +
            `apiKey=${encodeURIComponent(key)}`;
      }),
    ),
  },
  {
    name: 'header-key-ignored',
    rule: 'AUTH-01',
    kind: 'status',
    description: 'A whitelisted key in X-Api-Key is refused with 403.',
    apply: switches({ headerKeyIgnored: true }),
  },
  {
    name: 'header-key-empty-success',
    rule: 'AUTH-01',
    kind: 'shape',
    description:
      'A whitelisted key in X-Api-Key gets 200 with an empty object: the gateway authorises the ' +
      'header form but never forwards it.',
    apply: rewrite(['*'], (r, req, context) =>
      context?.document === 'main' &&
      r.status === 200 &&
      req.headers['x-api-key'] !== undefined &&
      !Buffer.isBuffer(r.body)
        ? { status: 200, body: {} }
        : r,
    ),
  },
  {
    name: 'query-key-ignored',
    rule: 'AUTH-02',
    kind: 'status',
    description: 'A whitelisted key in ?apiKey= is refused with 403.',
    apply: switches({ queryKeyIgnored: true }),
  },
  {
    name: 'query-key-redirected-without-key',
    rule: 'AUTH-02',
    kind: 'protocol',
    description:
      'A request with the key in ?apiKey= is redirected (302) to the same URL without the key, so ' +
      'a client that re-attaches it, as it must, never arrives.',
    apply: rewrite(['*'], (r, req, context) =>
      context && r.status === 200 && queryKeyOnly(req)
        ? { status: 302, headers: { Location: context.requestUrl }, body: { message: 'Moved' } }
        : r,
    ),
  },
  {
    name: 'unknown-key-accepted',
    rule: 'AUTH-03',
    kind: 'status',
    description: 'Any key at all is served, whitelisted or not.',
    apply: switches({ unknownKeyServedOn: ['*'] }),
  },
  {
    name: 'key-compared-case-insensitively',
    rule: 'AUTH-03',
    kind: 'value',
    description: 'Keys are compared ignoring case: MOCK-KEY-PRIMARY opens what mock-key-primary opens.',
    apply: (request, next, seen) => {
      const presented = presentedKey(request);
      const response = next(request, { unknownKeyServedOn: ['*'] });
      const { context } = seen;
      // Served with a whitelisted key, or opened by another fault as well: nothing to refuse here.
      if (presented === undefined || !context || context.key) return response;
      if ((context.defects.unknownKeyServedOn || []).length > 1 || response.code === 'HTTPS_ONLY')
        return response;
      if (!context.operation.security.some((requirement) => Object.keys(requirement).length > 0))
        return response;
      const variant = [...context.state.keys.keys()].some(
        (key) => key.toLowerCase() === presented.toLowerCase(),
      );
      return variant ? response : refuseKey(context);
    },
  },
  {
    name: 'unknown-query-key-accepted',
    rule: 'AUTH-03',
    kind: 'status',
    description:
      'A key in ?apiKey= is checked for presence only: any value there is served (the header form ' +
      'is checked).',
    apply: (request, next) => next(request, queryKeyOnly(request) ? { unknownKeyServedOn: ['*'] } : {}),
  },
  {
    name: 'unknown-key-redirected-to-sign-in',
    rule: 'AUTH-03',
    kind: 'protocol',
    description: 'A key outside the whitelist is redirected (302) to a sign-in page instead of getting 403.',
    apply: rewrite(['*'], (r, req, context) =>
      r.code === 'KEY_INVALID'
        ? {
            status: 302,
            headers: { Location: `/sign-in?return=${encodeURIComponent(context?.requestUrl ?? req.path)}` },
            body: { message: 'Sign in to continue' },
          }
        : r,
    ),
  },
  {
    name: 'missing-key-accepted',
    rule: 'AUTH-04',
    kind: 'status',
    description: 'A request with no key is served.',
    apply: switches({ missingKeyServed: true }),
  },
  {
    name: 'missing-key-401',
    rule: 'AUTH-04',
    kind: 'status',
    description: 'A request with no key gets 401 instead of 403.',
    apply: rewrite(['*'], (r) => (r.code === 'KEY_MISSING' ? { ...r, status: 401 } : r)),
  },
  {
    name: 'bearer-stands-in-for-key',
    rule: 'AUTH-04',
    kind: 'header',
    description:
      'A request with no key but an Authorization header skips the key check: a bearer token alone ' +
      'opens the profile.',
    apply: (request, next) =>
      next(
        request,
        request.headers.authorization !== undefined && presentedKey(request) === undefined
          ? { missingKeyServed: true }
          : {},
      ),
  },
  {
    name: 'throttle-without-retry-after',
    rule: 'AUTH-06',
    kind: 'header',
    description: 'A throttled key gets 429 without Retry-After.',
    apply: rewrite(['*'], (r) =>
      r.code === 'THROTTLED'
        ? {
            ...r,
            headers: Object.fromEntries(Object.entries(r.headers ?? {}).filter(([k]) => k !== 'Retry-After')),
          }
        : r,
    ),
  },
  {
    name: 'retry-after-zero',
    rule: 'AUTH-06',
    kind: 'value',
    description:
      'A throttled key gets Retry-After: 0 while it stays throttled: a client that obeys it is ' +
      'throttled again at once.',
    apply: rewrite(['*'], (r) =>
      r.code === 'THROTTLED' ? { ...r, headers: { ...r.headers, 'Retry-After': '0' } } : r,
    ),
  },
  {
    name: 'throttled-with-503',
    rule: 'AUTH-06',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'A throttled key gets 503 Service Unavailable (with Retry-After) instead of 429.',
    apply: rewrite(['*'], (r) =>
      r.code === 'THROTTLED' ? { ...r, status: 503, body: { message: 'Service unavailable' } } : r,
    ),
  },
  {
    name: 'key-echoed-in-header',
    rule: 'AUTH-07',
    kind: 'header',
    description: 'Every response echoes the key in an X-Api-Key header.',
    apply: rewrite(['*'], (r, req) => {
      const key = presentedKey(req);
      return key ? { ...r, headers: { ...r.headers, 'X-Api-Key': key } } : r;
    }),
  },
  {
    name: 'refused-key-quoted-in-403',
    rule: 'AUTH-07',
    kind: 'value',
    description: 'The 403 for a key outside the whitelist quotes the key it refused in its message.',
    apply: rewrite(['*'], (r, req) =>
      r.code === 'KEY_INVALID'
        ? {
            ...r,
            body: {
              ...(r.body as object),
              message: `The API key ${presentedKey(req)} is not in the whitelist`,
            },
          }
        : r,
    ),
  },
  {
    name: 'https-redirect-carries-key',
    rule: 'AUTH-07',
    kind: 'protocol',
    description:
      'The redirect from plain HTTP to HTTPS keeps the whole query, ?apiKey= included, in its Location.',
    apply: rewrite(['*'], (r, req) => {
      if (r.code !== 'HTTPS_ONLY') return r;
      const query = req.rawQuery ?? req.query.toString();
      const location = `${req.httpsOrigin}${req.path}${query ? `?${query}` : ''}`;
      return { ...r, headers: { Location: location }, body: { message: `HTTPS only: use ${location}` } };
    }),
  },
];
