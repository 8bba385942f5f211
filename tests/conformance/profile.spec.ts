import fc from 'fast-check';
import {
  atMostRuns,
  invalidAuthorization,
  invalidIdentifier,
  nearKeys,
  otherContentType,
  parameterCheck,
  unknownKey,
  unknownUuid,
  withKnown,
} from '../../lib/arbitraries/index.ts';
import type { ApiClient, ApiResponse, CallOptions } from '../../lib/client/client.ts';
import { says } from '../../lib/claims.ts';
import { controlledPart, expect, need, needsControl, test, type TargetFixture } from '../fixtures.ts';
import { describesCause } from './samples.ts';

const JSON_TYPE = { 'Content-Type': 'application/json' };

/** A token of the configuration gets 401 for the configured user, whose id it returns. */
async function refusedFor(api: ApiClient, target: TargetFixture, token: string): Promise<string> {
  const userId = need(target.data.userId, 'CLM_USER_ID');
  expect((await profile(api, userId, { token })).status).toBe(401);
  return userId;
}

function profile(api: ApiClient, userId: string, options: CallOptions = {}) {
  return api.call('getUserFullProfile', { path: { userId }, headers: JSON_TYPE, ...options });
}

test.describe('user full profile', () => {
  test('key, a token for the user with profile_max and Content-Type get the profile @PROF-01', async ({
    api,
    target,
  }) => {
    const token = need(target.data.token, 'CLM_USER_TOKEN');
    const userId = need(target.data.userId, 'CLM_USER_ID');
    const response = await profile(api, userId, { token });
    expect(response.status).toBe(200);
    const user = (response.json as { user?: { id?: string } }).user;
    if (user?.id !== undefined) expect(user.id).toBe(userId);
    // A parameter does not make another media type, nor does case: this is still application/json
    // (RFC 9110, 8.3.1).
    for (const contentType of [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON',
    ]) {
      const withCharset = await profile(api, userId, { token, headers: { 'Content-Type': contentType } });
      expect(withCharset.status, contentType).toBe(200);
    }
  });

  test('a missing, malformed or unknown token, or a valid one without the Bearer scheme, gets 401 @PROF-02 @property', async ({
    api,
    target,
    fcParams,
  }) => {
    const userId = need(target.data.userId, 'CLM_USER_ID');
    const valid = [target.data.token, target.data.tokenWithoutProfileMax].filter((t): t is string => !!t);
    await fc.assert(
      fc.asyncProperty(invalidAuthorization(valid), async (authorization) => {
        const response = await profile(api, userId, {
          headers: { ...JSON_TYPE, ...(authorization === undefined ? {} : { Authorization: authorization }) },
        });
        expect(response.status).toBe(401);
      }),
      atMostRuns(fcParams, 50),
    );
    // A valid token under another scheme, or under none, is no bearer token.
    const token = target.data.token;
    if (token === undefined) return;
    for (const [scheme, authorization] of [
      ['none', token],
      ['Basic', `Basic ${token}`],
      ['Token', `Token ${token}`],
    ] as const) {
      const response = await profile(api, userId, {
        headers: { ...JSON_TYPE, Authorization: authorization },
      });
      expect(response.status, `the token with scheme ${scheme}`).toBe(401);
    }
  });

  test('an expired token gets 401, even seconds after its expiry @PROF-02', async ({ api, target }) => {
    const userId = await refusedFor(api, target, need(target.data.expiredToken, 'CLM_EXPIRED_TOKEN'));
    // Only the mock can issue a token that expired just now.
    const mock = controlledPart(target, 'a token that expired seconds ago');
    if (!mock) return;
    const fresh = 'expired-seconds-ago-3c9d1f';
    const expiresAt = mock.state.clock.now() - 5_000;
    mock.state.issueToken({
      value: fresh,
      userId,
      scopes: ['profile_max'],
      expiresAt,
      label: 'expired 5 s ago',
    });
    expect((await profile(api, userId, { token: fresh })).status, 'expired 5 s ago').toBe(401);
  });
});

test.describe('user full profile: a token that may not read this profile', () => {
  test('a token without scope profile_max gets 401 @PROF-03', async ({ api, target }) => {
    const token = need(target.data.tokenWithoutProfileMax, 'CLM_TOKEN_WITHOUT_PROFILE_MAX');
    const userId = await refusedFor(api, target, token);
    // Only the mock can issue tokens whose scopes hold profile_max inside another name.
    const mock = controlledPart(target, 'tokens whose scopes hold profile_max inside another name');
    if (!mock) return;
    for (const [i, scope] of ['profile_maxx', 'profile_max_lite', 'no_profile_max'].entries()) {
      const inside = `scope-inside-another-${i}-7b2e`;
      mock.state.issueToken({ value: inside, userId, scopes: [scope], expiresAt: Infinity, label: scope });
      expect((await profile(api, userId, { token: inside })).status, scope).toBe(401);
    }
  });

  test('a key outside the whitelist gets 403 @PROF-04 @property', async ({ api, target, fcParams }) => {
    const userId = target.data.userId ?? '00000000-0000-4000-8000-000000000000';
    await fc.assert(
      fc.asyncProperty(unknownKey(target.data.whitelist), async (key) => {
        const response = await profile(api, userId, {
          key: { header: key },
          ...(target.data.token ? { token: target.data.token } : {}),
        });
        expect(response.status).toBe(403);
      }),
      withKnown(atMostRuns(fcParams, 20), nearKeys(target.data.whitelist)),
    );
  });

  test('a valid token of another user gets 403 @PROF-04', async ({ api, target, promises }) => {
    const otherUserId = need(target.data.otherUserId, 'CLM_OTHER_USER_ID');
    const token = need(target.data.token, 'CLM_USER_TOKEN');
    if (promises.controlsData) {
      // The owner reads it first, so no cache in front may hand it on to another token.
      const owner = 'owner-of-the-other-profile';
      target.mock!.state.issueToken({
        value: owner,
        userId: otherUserId,
        scopes: ['profile_max'],
        expiresAt: Infinity,
        label: 'owner',
      });
      expect((await profile(api, otherUserId, { token: owner })).status, 'read by its owner').toBe(200);
    }
    expect((await profile(api, otherUserId, { token })).status).toBe(403);
  });
});

test.describe('user full profile: the unknown user, the request itself, and what an error says', () => {
  test('an unknown user gets 404 @PROF-05 @property', async ({ api, target, fcParams, promises }) => {
    needsControl(promises);
    await fc.assert(
      fc.asyncProperty(unknownUuid(), async (userId) => {
        expect((await profile(api, userId, { token: target.data.token! })).status).toBe(404);
      }),
      atMostRuns(fcParams, 20),
    );
  });

  test('a missing or wrong Content-Type gets 415 @PROF-06 @property', async ({ api, target, fcParams }) => {
    const token = need(target.data.token, 'CLM_USER_TOKEN');
    const userId = need(target.data.userId, 'CLM_USER_ID');
    await fc.assert(
      fc.asyncProperty(otherContentType(), async (contentType) => {
        const response = await profile(api, userId, {
          token,
          headers: contentType === undefined ? {} : { 'Content-Type': contentType },
        });
        expect(response.status).toBe(415);
      }),
      // Media types that merely start like JSON's, on every run whatever the seed.
      withKnown<string | undefined>(atMostRuns(fcParams, 50), [
        'application/jsonp',
        'application/json-patch+json',
        'application/json5',
      ]),
    );
  });

  test('a userId that is not a valid identifier gets 400 with details @PROF-07 @property', async ({
    api,
    contract,
    target,
    fcParams,
    promises,
  }) => {
    needsControl(promises);
    const isValid = parameterCheck(contract, 'getUserFullProfile', 'userId');
    await fc.assert(
      fc.asyncProperty(invalidIdentifier(isValid), async (userId) => {
        const response = await profile(api, userId, { token: target.data.token! });
        expect(response.status).toBe(400);
        expect(describesCause(response.json)).toBe(true);
      }),
      // A valid identifier with white space around it is not a valid identifier.
      withKnown(atMostRuns(fcParams, 50), [
        ` ${target.data.userId!}`,
        `${target.data.userId!} `,
        `${target.data.userId!}\t`,
      ]),
    );
  });

  test('every error response describes its cause @PROF-08', async ({ api, target }) => {
    const userId = target.data.userId ?? '00000000-0000-4000-8000-000000000000';
    // Each request, and the rule that makes it an error: without the error there is no cause to read.
    const errors: [ApiResponse, string][] = [
      [await profile(api, userId), 'PROF-02'],
      [await profile(api, userId, { token: 'not-a-token' }), 'PROF-02'],
      [await profile(api, userId, { key: 'none' }), 'AUTH-04'],
      [
        await profile(api, userId, {
          headers: { 'Content-Type': 'text/plain' },
          ...(target.data.token ? { token: target.data.token } : {}),
        }),
        'PROF-06',
      ],
    ];
    for (const [response, rule] of errors) {
      expect(response.status, says(rule, `${response.status} is an error`)).toBeGreaterThanOrEqual(400);
      expect(describesCause(response.json), JSON.stringify(response.json)).toBe(true);
    }
  });
});
