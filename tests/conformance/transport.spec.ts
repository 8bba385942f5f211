import fc from 'fast-check';
import { invalidIdentifier } from '../../lib/arbitraries/index.ts';
import type { ApiClient, ApiResponse } from '../../lib/client/client.ts';
import { expect, need, test, type TargetFixture } from '../fixtures.ts';
import { CAUSE_RULES, describesCause, samples } from './samples.ts';
import { HOUR, iso } from '../../lib/time.ts';

const HTTPS_ONLY = ['listTrialExclusionIpAddresses', 'getLicence', 'getUserFullProfile'];

/** An HTTPS-only operation asked over plain HTTP, the redirect not followed. */
function overPlainHttp(api: ApiClient, target: TargetFixture, operation: string, headers = {}) {
  const path = {
    licenceId: target.data.licenceId ?? '00000000-0000-4000-8000-000000000000',
    userId: target.data.userId ?? '00000000-0000-4000-8000-000000000000',
  };
  return api.call(operation, {
    path,
    plainHttp: true,
    key: 'query',
    followRedirects: false,
    checks: 'safety',
    headers: { ...(target.data.token ? { 'Content-Type': 'application/json' } : {}), ...headers },
    ...(target.data.token ? { token: target.data.token } : {}),
  });
}

/** TLS-01: a redirect to `https:` that carries no key, or a refusal; never the resource. */
function expectNoResourceOverHttp(response: ApiResponse): void {
  const location = response.headers.location ?? '';
  const redirectToHttps = response.status >= 300 && response.status < 400 && location.startsWith('https:');
  const refused = response.status >= 400;
  expect(redirectToHttps || refused, `over HTTP: ${response.status} ${location}`).toBe(true);
  expect(location, 'the redirect carries no key').not.toContain('apiKey');
}

test.describe('transport', () => {
  for (const operation of HTTPS_ONLY) {
    test(`${operation} over plain HTTP never returns the resource, whatever the request claims @TLS-01`, async ({
      api,
      target,
      promises,
    }) => {
      need(target.httpBaseUrl, 'CLM_HTTP_BASE_URL');
      // The client decides what crosses plain HTTP; live, the note says what it was.
      if (!promises.unsafeRequests)
        test.info().annotations.push({
          type: 'note',
          description: target.plainHttpKey
            ? 'asked over plain HTTP with the throwaway key CLM_PLAIN_HTTP_KEY: the key and token never go there'
            : 'asked over plain HTTP with no key or token (CLM_PLAIN_HTTP_KEY not set): the key and token never go there',
        });
      expectNoResourceOverHttp(await overPlainHttp(api, target, operation));
      // Only a proxy the service trusts may say how a request came: a client's own claim changes nothing.
      expectNoResourceOverHttp(
        await overPlainHttp(api, target, operation, {
          'X-Forwarded-Proto': 'https',
          'X-Forwarded-Port': '443',
        }),
      );
    });
  }
});

test.describe('transport: JSON answers, bodies and drift', () => {
  test('every response, errors included, is JSON @HTTP-01', async ({ api, target }) => {
    const licenceId = '00000000-0000-4000-8000-000000000000';
    const responses = [
      await api.call('listNotifications', {}),
      await api.call('listTrialExclusionIpAddresses', { key: 'none' }),
      await api.call('getLicence', { path: { licenceId } }),
      await api.call('getLicence', { path: { licenceId: 'not-valid' } }),
      await api.raw({ url: '/no/such/endpoint', checks: 'safety' }),
      ...(await Promise.all(
        samples(target)
          .samples.slice(0, 3)
          .map((s) => api.call(s.operation, s.options)),
      )),
    ];
    for (const response of responses)
      expect(response.headers['content-type'], response.url).toMatch(/^application\/json/);
  });

  test('a request body on an endpoint that takes none is never answered with a 5xx @HTTP-02', async ({
    api,
    contract,
    target,
    decided,
  }) => {
    for (const { operation, options } of samples(target).samples) {
      if (contract.operation(operation).requestBody) continue;
      const response = await api.call(operation, {
        ...options,
        body: { unexpected: true },
        checks: 'safety',
        decides: ['HTTP-02'],
      });
      expect(response.status, operation).toBeLessThan(500);
      const at = { operation, status: response.status, field: 'body', case: operation };
      if (decided('request-body-refused', response.status, at) === 'other') continue;
      // An error that says nothing is the operation's rule of causes (PROF-08), before the decision's words.
      const rules = CAUSE_RULES.filter((r) => contract.operation(operation).rules.includes(r));
      const what = `${operation}: the 400 says what was wrong`;
      decided('decided-refusal-says-why', describesCause(response.json), {
        ...at,
        field: '(body)',
        rules,
        what,
      });
      const { message } = (response.json ?? {}) as { message?: string };
      decided('request-body-not-supported', message, { ...at, field: 'message' });
    }
  });

  test('fields the contract does not name are listed as drift and never fail @HTTP-03', async ({
    api,
    target,
    observations,
    promises,
  }) => {
    const pageId = need(target.data.pageId, 'CLM_PAGE_ID');
    const response = await api.call('getPageMainContent', { path: { pageId } });
    expect(response.status).toBeLessThan(500);
    // The mock's page items carry `location`, which the contract does not name.
    if (promises.controlsData)
      expect(observations.drift.map((d) => d.field)).toContain('pageItems[].location');
  });
});

test.describe('transport: malformed input', () => {
  test('no input, however malformed (path, query, headers), is answered with a 5xx @HTTP-04 @property', async ({
    api,
    contract,
    target,
    fcParams,
  }) => {
    const operations = [...contract.operations.values()].filter((op) => op.document === 'main');
    const junk = invalidIdentifier(() => false);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        junk,
        fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), fc.string({ maxLength: 100 }), {
          maxKeys: 4,
        }),
        async (op, segment, query) => {
          const path = op.path.replace(/\{[^}]+\}/g, encodeURIComponent(segment));
          const search = new URLSearchParams(query).toString();
          const response = await api.raw({
            method: op.method.toUpperCase(),
            url: `${path}${search ? `?${search}` : ''}`,
            checks: 'safety',
            ...(op.requestBody ? { body: segment } : {}),
          });
          expect(response.status, `${op.method.toUpperCase()} ${path}`).toBeLessThan(500);
        },
      ),
      fcParams,
    );
    // Percent-escapes no client would send, written into the path as they are.
    for (const raw of [
      '/content/%E0%A4%A',
      '/licence/%',
      '/site/v1/pages/%zz/main-content',
      '/users/%C0%AF/profile/full',
    ])
      expect((await api.raw({ url: raw, checks: 'safety' })).status, raw).toBeLessThan(500);
    // Headers of 8 KB, far beyond any a client needs and well inside what an HTTP server reads (16 KB),
    // and query parameters no operation defines, on every run whatever the seed.
    const licenceId = target.data.licenceId ?? '00000000-0000-4000-8000-000000000000';
    const since = iso(target.now() - HOUR);
    const long = 'x'.repeat(8_000);
    const safety = { checks: 'safety' } as const;
    const responses = [
      await api.call('listTrialExclusionIpAddresses', { headers: { 'X-Correlation-Id': long }, ...safety }),
      await api.call('getLicence', { path: { licenceId }, key: { header: long }, ...safety }),
      await api.call('getLicence', { path: { licenceId }, query: { expand: 'seats' }, ...safety }),
      await api.call('listTrialExclusionIpAddresses', { query: { limit: '10' }, ...safety }),
      await api.call('listNotifications', { query: { since, fields: 'id' }, ...safety }),
    ];
    for (const response of responses) expect(response.status, response.url.slice(0, 120)).toBeLessThan(500);
  });
});
