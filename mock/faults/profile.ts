import { baseMediaType } from '../../lib/contract/index.ts';
import { fail } from '../handlers/respond.ts';
import type { State } from '../state/index.ts';
import type { Token } from '../state/membership.ts';
import type { Context, MockRequest, MockResponse } from '../types.ts';
import {
  answeredAs,
  onStatus,
  otherUuid,
  rewrite,
  switches,
  type Fault,
  type Json,
  EVERY_400,
  MISJUDGES_MEDIA_TYPE,
} from './fault.ts';

const PROFILE = ['getUserFullProfile'];

/** The token of `Authorization: Bearer <token>`, read as the handler reads it. */
function bearerToken(request: MockRequest): string | undefined {
  return /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * A profile check done wrong: the clean check is switched off, and `keep` decides afterwards, for a
 * known token whose answer came from the handler past its token checks, whether that answer stands
 * or becomes the 401 the handler gives.
 */
function tokenCheck(
  off: { tokenExpiryUnchecked: true } | { tokenScopeUnchecked: true },
  message: string,
  keep: (token: Token, context: Context) => boolean,
): Fault['apply'] {
  return (request, next, seen) => {
    const response: MockResponse = next(request, off);
    const { context } = seen;
    const token = context?.state.tokens.get(bearerToken(request) ?? '');
    if (!context || !token || !PROFILE.includes(context.operation.id) || response.code) return response;
    if (![200, 401, 403, 404].includes(response.status) || keep(token, context)) return response;
    return fail(context, 401, message);
  };
}

/** How long after its expiry a token still opens the profile, in the grace fault. */
const GRACE_MS = 60_000;

/** How long the cache of the shared-cache fault keeps a profile. */
const CACHE_MS = 60_000;
/** The shared-cache fault's entries, per mock: a profile's path → when it was read, and the answer. */
const profileCaches = new WeakMap<State, Map<string, { at: number; response: MockResponse }>>();

/** User full profile: faults that break its rules. */
export const PROFILE_FAULTS: Fault[] = [
  {
    name: 'profile-of-another-user',
    rule: 'PROF-01',
    kind: 'value',
    description: "The profile served is another user's (user.id differs from the userId asked for).",
    apply: rewrite(
      PROFILE,
      onStatus(200, (b) => void ((b.user as Json).id = otherUuid(String((b.user as Json).id)))),
    ),
  },
  {
    name: 'profile-charset-refused',
    rule: 'PROF-01',
    alsoBreaks: MISJUDGES_MEDIA_TYPE,
    kind: 'header',
    description:
      'Content-Type is compared as a whole string: application/json; charset=utf-8 gets 415 ' +
      'although it is JSON.',
    apply: rewrite(PROFILE, (r, req, context) =>
      context && !r.code && r.status !== 415 && req.headers['content-type'] !== 'application/json'
        ? fail(context, 415, 'Unsupported media type: send Content-Type: application/json')
        : r,
    ),
  },
  {
    name: 'expired-token-accepted',
    rule: 'PROF-02',
    kind: 'timing',
    description: 'An expired token is accepted.',
    apply: switches({ tokenExpiryUnchecked: true }),
  },
  {
    name: 'expired-token-grace-minute',
    rule: 'PROF-02',
    kind: 'timing',
    description: 'A token is accepted for a minute after its expiry (a clock-skew allowance).',
    notLive: 'Needs a token that expired less than a minute ago, which only the mock can issue on demand.',
    apply: tokenCheck(
      { tokenExpiryUnchecked: true },
      'The access token has expired',
      (token, context) => token.expiresAt > context.state.clock.now() - GRACE_MS,
    ),
  },
  {
    name: 'token-scheme-not-checked',
    rule: 'PROF-02',
    kind: 'header',
    description:
      'The scheme of Authorization is not checked: its last word is taken as the token (a bare ' +
      'token, Basic <token>).',
    apply: (request, next) => {
      const authorization = request.headers.authorization;
      const last = authorization?.trim().split(/\s+/).pop();
      return authorization !== undefined && !authorization.startsWith('Bearer ') && last
        ? next({ ...request, headers: { ...request.headers, authorization: `Bearer ${last}` } })
        : next(request);
    },
  },
  {
    name: 'scope-not-checked',
    rule: 'PROF-03',
    kind: 'status',
    description: 'A token without profile_max is accepted.',
    apply: switches({ tokenScopeUnchecked: true }),
  },
  {
    name: 'scope-checked-by-substring',
    rule: 'PROF-03',
    kind: 'value',
    description: 'The scope is found by substring: profile_maxx or profile_max_lite pass for profile_max.',
    apply: tokenCheck({ tokenScopeUnchecked: true }, 'The access token lacks scope profile_max', (token) =>
      token.scopes.some((scope) => scope.includes('profile_max')),
    ),
  },
  {
    name: 'other-users-token-accepted',
    rule: 'PROF-04',
    kind: 'status',
    description: 'A valid token of another user opens the profile.',
    apply: switches({ tokenOwnerUnchecked: true }),
  },
  {
    name: 'profile-cached-across-tokens',
    rule: 'PROF-04',
    kind: 'timing',
    description:
      'A cache keyed by the path alone: for a minute after its owner read it, a profile is served ' +
      'to any valid token.',
    notLive: 'It shows only once the other user has read the profile, with a token a live run does not have.',
    apply: (request, next, seen) => {
      const response = next(request);
      const { context } = seen;
      if (!context || context.operation.id !== 'getUserFullProfile') return response;
      const cache =
        profileCaches.get(context.state) ?? new Map<string, { at: number; response: MockResponse }>();
      profileCaches.set(context.state, cache);
      const now = context.state.clock.now();
      if (response.status === 200) cache.set(request.path, { at: now, response });
      const hit = cache.get(request.path);
      return response.status === 403 && !response.code && hit && now - hit.at < CACHE_MS
        ? hit.response
        : response;
    },
  },
  {
    name: 'unknown-user-empty-profile',
    rule: 'PROF-05',
    kind: 'status',
    description: 'An unknown user gets 200 with an empty profile.',
    apply: rewrite(PROFILE, (r) => (r.status === 404 ? { status: 200, body: {} } : r)),
  },
  {
    name: 'unknown-user-gets-token-owner',
    rule: 'PROF-05',
    kind: 'value',
    description: "An unknown user falls back to the token's own user: 200 with the token owner's profile.",
    apply: answeredAs(PROFILE, (r, req, context) => {
      if (r.status !== 404 || r.code) return undefined;
      const token = context.state.tokens.get(bearerToken(req) ?? '');
      return token && `/users/${encodeURIComponent(token.userId)}/profile/full`;
    }),
  },
  {
    name: 'content-type-not-checked',
    rule: 'PROF-06',
    kind: 'status',
    description: 'A missing or wrong Content-Type is accepted.',
    apply: switches({ contentTypeUnchecked: true }),
  },
  {
    name: 'content-type-prefix-match',
    rule: 'PROF-06',
    kind: 'value',
    description:
      'The media type is checked by prefix: application/jsonp or application/json-patch+json pass ' +
      'for application/json.',
    apply: (request, next) => {
      const media = baseMediaType(request.headers['content-type']);
      return media.startsWith('application/json') && media !== 'application/json'
        ? next({ ...request, headers: { ...request.headers, 'content-type': 'application/json' } })
        : next(request);
    },
  },
  {
    name: 'invalid-user-id-404',
    rule: 'PROF-07',
    alsoBreaks: EVERY_400,
    kind: 'status',
    description: 'A userId that is not a valid identifier gets 404 instead of 400.',
    apply: rewrite(PROFILE, (r) => (r.status === 400 ? { ...r, status: 404 } : r)),
  },
  {
    name: 'user-id-trimmed',
    rule: 'PROF-07',
    kind: 'value',
    description: 'The userId is trimmed before it is checked: " <uuid>" or "<uuid> " is taken as valid.',
    // Before routing, so the path is read here: the trimmed id is what the handler then checks.
    apply: (request, next) => {
      const match = /^\/users\/([^/]+)\/profile\/full$/.exec(request.path);
      let id: string | undefined;
      try {
        id = match ? decodeURIComponent(match[1]!) : undefined;
      } catch {
        id = undefined;
      }
      const trimmed = id?.trim();
      return id !== undefined && trimmed && trimmed !== id
        ? next({ ...request, path: `/users/${encodeURIComponent(trimmed)}/profile/full` })
        : next(request);
    },
  },
  {
    name: 'profile-401-without-cause',
    rule: 'PROF-08',
    kind: 'shape',
    description: 'A 401 of the profile has an empty body {}.',
    apply: rewrite(
      PROFILE,
      onStatus(401, (b) => void delete b.message),
    ),
  },
  {
    name: 'profile-error-message-empty',
    rule: 'PROF-08',
    // Every 400 of the profile loses its words: the details PROF-07 asks for among them.
    alsoBreaks: ['PROF-07'],
    kind: 'value',
    description: 'Every error of the profile carries message "" : the field is there, the cause is not.',
    apply: rewrite(PROFILE, (r) =>
      r.status >= 400 && typeof r.body === 'object' && r.body !== null && !Buffer.isBuffer(r.body)
        ? { ...r, body: { ...r.body, message: '' } }
        : r,
    ),
  },
];
