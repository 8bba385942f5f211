import { rewrite, switches, type Fault } from './fault.ts';

/** Keys, transport, shared behaviour: faults that break its rules. */
export const KEYS_FAULTS: Fault[] = [
  {
    name: 'header-key-ignored',
    rule: 'AUTH-01',
    kind: 'status',
    description: 'A whitelisted key in X-Api-Key is refused with 403.',
    apply: switches({ acceptHeaderKey: false }),
  },
  {
    name: 'query-key-ignored',
    rule: 'AUTH-02',
    kind: 'status',
    description: 'A whitelisted key in ?apiKey= is refused with 403.',
    apply: switches({ acceptQueryKey: false }),
  },
  {
    name: 'unknown-key-accepted',
    rule: 'AUTH-03',
    kind: 'status',
    description: 'Any key at all is served, whitelisted or not.',
    apply: switches({ unknownKeyAcceptedOn: ['*'] }),
  },
  {
    name: 'missing-key-accepted',
    rule: 'AUTH-04',
    kind: 'status',
    description: 'A request with no key is served.',
    apply: switches({ acceptMissingKey: true }),
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
    name: 'key-echoed-in-header',
    rule: 'AUTH-07',
    kind: 'header',
    description: 'Every response echoes the key in an X-Api-Key header.',
    apply: rewrite(['*'], (r, req) => {
      const key = req.headers['x-api-key'] ?? req.query.get('apiKey');
      return key ? { ...r, headers: { ...r.headers, 'X-Api-Key': key } } : r;
    }),
  },
  {
    name: 'http-serves-resource',
    rule: 'TLS-01',
    kind: 'protocol',
    description: 'Licence, trial exclusions and profile are served over plain HTTP.',
    apply: switches({ httpsOnly: false }),
  },
  {
    name: 'errors-as-text',
    rule: 'HTTP-01',
    kind: 'header',
    description: 'Error responses are sent as text/plain.',
    apply: rewrite(['*'], (r) =>
      r.status >= 400 ? { ...r, headers: { ...r.headers, 'Content-Type': 'text/plain' } } : r,
    ),
  },
  {
    name: 'body-breaks-server',
    rule: 'HTTP-02',
    kind: 'status',
    description: 'A request body on a bodiless endpoint gets 500.',
    apply: rewrite(['*'], (r) =>
      r.code === 'BODY_NOT_SUPPORTED' ? { ...r, status: 500, body: { message: 'Internal Server Error' } } : r,
    ),
  },
  {
    name: 'bad-escape-breaks-server',
    rule: 'HTTP-04',
    kind: 'status',
    description: 'A malformed percent-escape in the path gets 500.',
    apply: rewrite(['*'], (r) =>
      r.code === 'MALFORMED_PATH' ? { ...r, status: 500, body: { message: 'URIError: URI malformed' } } : r,
    ),
  },
];
