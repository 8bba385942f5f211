import fc from 'fast-check';
import { nearKeys, unknownKey } from '../../lib/arbitraries/index.ts';
import type { ApiClient } from '../../lib/client/client.ts';
import { ApiCheckError, type CallOptions } from '../../lib/client/types.ts';
import { says } from '../../lib/claims.ts';
import { expect, need, test } from '../fixtures.ts';
import { present, samples, succeeded, type Sample } from './samples.ts';

/** Where a request carries its key, and the rule of each place. */
type Form = 'header' | 'query';
const FORMS = { header: ['AUTH-01', 'X-Api-Key'], query: ['AUTH-02', 'apiKey'] } as const;

/**
 * A call with the key in one place. An answer the client's checks refuse there, where the same
 * request with the key in the other place conforms, is that place's failure, whatever check broke.
 */
async function inForm(api: ApiClient, operation: string, options: CallOptions, form: Form) {
  return api.call(operation, { ...options, key: form }).catch(async (error: unknown) => {
    // A key echoed (AUTH-07) is the echo's failure, whichever place the key went in.
    if (!(error instanceof ApiCheckError) || error.failures.some((f) => f.check === 'noSecretEchoed'))
      throw error;
    const other: Form = form === 'header' ? 'query' : 'header';
    const byOther = await api.call(operation, { ...options, key: other }).catch(() => undefined);
    if (!byOther || !succeeded(api, byOther)) throw error;
    const [rule, name] = FORMS[form];
    throw new Error(
      says(
        rule,
        `${operation}: with the key in ${name} the answer fails the contract; in ${FORMS[other][1]} it conforms`,
      ),
    );
  });
}

test.describe('keys', () => {
  test('a whitelisted key in X-Api-Key gets the success response of every endpoint @AUTH-01', async ({
    api,
    target,
  }) => {
    const { samples: calls, missing } = samples(target);
    if (missing.length)
      test.info().annotations.push({ type: 'note', description: `not called without ${missing.join(', ')}` });
    for (const { operation, options } of calls) {
      const response = await inForm(api, operation, options, 'header');
      expect(succeeded(api, response), `${operation} -> ${response.status}`).toBe(true);
    }
  });

  test('the same key in the apiKey query parameter works exactly as the header @AUTH-02', async ({
    api,
    target,
    promises,
  }) => {
    for (const { operation, options } of samples(target).samples) {
      const byHeader = await inForm(api, operation, options, 'header');
      const byQuery = await inForm(api, operation, options, 'query');
      // Refused in the header alone: the header's form is what fails (AUTH-01), not the query's.
      const owner = !succeeded(api, byHeader) && succeeded(api, byQuery) ? 'AUTH-01' : 'AUTH-02';
      expect(byQuery.status, says(owner, operation)).toBe(byHeader.status);
      if (promises.controlsData) expect(byQuery.json, operation).toEqual(byHeader.json);
    }
  });
});

test.describe('keys: a key outside the whitelist, or none', () => {
  test('a key outside the whitelist gets 403 on every endpoint that takes one, in either form @AUTH-03 @property', async ({
    api,
    contract,
    target,
    fcParams,
  }) => {
    const calls = await present(api, contract, target);
    const near = nearKeys(target.data.whitelist);
    // Every endpoint meets keys one slip from a real one on every run, whatever the seed: two slips
    // in the header and one in the query (a query key checked for presence only). Examples count
    // towards fast-check's runs, so the random cases come on top of them.
    const examples = near.length
      ? calls.flatMap((c, i): [Sample, string, Form][] => [
          [c, near[i % near.length]!, 'header'],
          [c, near[(i + 2) % near.length]!, 'header'],
          [c, near[(i + 1) % near.length]!, 'query'],
        ])
      : [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...calls),
        unknownKey(target.data.whitelist),
        fc.constantFrom<Form>('header', 'query'),
        async ({ operation, options }, key, form) => {
          const response = await api.call(operation, { ...options, key: { [form]: key } });
          expect(response.status, `${operation} with an unknown key in the ${form}`).toBe(403);
        },
      ),
      {
        ...(fcParams as fc.Parameters<[Sample, string, Form]>),
        numRuns: (fcParams.numRuns ?? 100) + examples.length,
        examples,
      },
    );
  });

  test('a request with no key gets 403 on every endpoint that takes one @AUTH-04', async ({
    api,
    contract,
    target,
  }) => {
    for (const { operation, options } of await present(api, contract, target)) {
      const response = await api.call(operation, { ...options, key: 'none' });
      expect(response.status, operation).toBe(403);
    }
  });
});

test.describe('keys: redirects and throttling', () => {
  test('the client sends the query key again after a redirect @AUTH-05 @TLS-01', async ({
    api,
    target,
    decided,
  }) => {
    need(target.httpBaseUrl, 'CLM_HTTP_BASE_URL');
    const response = await api.call('listTrialExclusionIpAddresses', { plainHttp: true, key: 'query' });
    // Refusing plain HTTP is as good as redirecting (TLS-01); then there is no redirect to follow.
    const { redirects, status } = response;
    const how = redirects.length > 0 ? 'redirected' : status >= 400 ? 'refused' : 'answered';
    const at = {
      operation: 'listTrialExclusionIpAddresses',
      status,
      field: 'location',
      case: String(status),
    };
    if (decided('plain-http-redirected', how, at) === 'other')
      test.skip(true, `the service refuses plain HTTP (${status}) instead of redirecting`);
    expect(response.redirects.length, says('TLS-01', 'a redirect to HTTPS')).toBeGreaterThan(0);
    expect(response.url.startsWith('https://'), says('TLS-01', 'the redirect leads to HTTPS')).toBe(true);
    expect(response.status, says('AUTH-05', 'the key went with the request after the redirect')).toBe(200);
  });

  test('a throttled key gets 429 with Retry-After, and the client waits and retries @AUTH-06', async ({
    api,
    mock,
    observations,
  }) => {
    mock.throttle.configure({ perSecond: 4, burst: 1 });
    // The second request within the burst of one is throttled, and waited out. A throttled key gets
    // 429: a 5xx in its place is AUTH-06's as well as HTTP-04's.
    for (let i = 0; i < 2; i++)
      expect((await api.call('listTrialExclusionIpAddresses', { decides: ['AUTH-06'] })).status).toBe(200);
    expect(observations.retries.length).toBeGreaterThan(0);
    for (const retry of observations.retries) expect(retry.reason).toMatch(/^429, Retry-After: \d+$/);
  });

  test('a throttled key gets 429 with Retry-After on every endpoint @AUTH-06', async ({
    api,
    mock,
    target,
  }) => {
    mock.throttle.configure({ perSecond: 0.001, burst: 0 });
    for (const { operation, options } of samples(target).samples) {
      const response = await api.call(operation, { ...options, retryThrottled: false, decides: ['AUTH-06'] });
      expect(response.status, operation).toBe(429);
      expect(Number(response.headers['retry-after']), `${operation} Retry-After`).toBeGreaterThan(0);
    }
  });
});

test.describe('keys: a key is never echoed', () => {
  test('a key never comes back in a response, in any form it is sent @AUTH-07', async ({
    api,
    target,
    observations,
  }) => {
    // The client's noSecretEchoed check runs on every response; here every form of key meets every
    // endpoint, and so does a refused key (a 403 must not quote it either), in one form or the other.
    const refused = 'refused-key-5e0c7a91';
    const calls = samples(target).samples;
    for (const [i, { operation, options }] of calls.entries()) {
      for (const key of ['header', 'query'] as const) await api.call(operation, { ...options, key });
      const form: Form = i % 2 === 0 ? 'header' : 'query';
      await api.call(operation, { ...options, key: { [form]: refused }, checks: 'safety' });
    }
    // A redirect from plain HTTP to HTTPS is a response too: its Location must not carry the key.
    if (target.httpBaseUrl)
      await api.call('listTrialExclusionIpAddresses', {
        plainHttp: true,
        key: 'query',
        followRedirects: false,
        checks: 'safety',
      });
    expect(observations.calls.length).toBeGreaterThan(0);
  });
});
