import fc from 'fast-check';
import { invalidIdentifier } from '../../lib/arbitraries/index.ts';
import { expect, need, test } from '../fixtures.ts';
import { samples } from './samples.ts';

test.describe('transport', () => {
  for (const operation of ['listTrialExclusionIpAddresses', 'getLicence', 'getUserFullProfile']) {
    test(`${operation} over plain HTTP never returns the resource @TLS-01`, async ({ api, target }) => {
      test.skip(!target.httpBaseUrl, 'needs CLM_HTTP_BASE_URL: the plain-HTTP base of the service');
      const path = {
        licenceId: target.data.licenceId ?? '00000000-0000-4000-8000-000000000000',
        userId: target.data.userId ?? '00000000-0000-4000-8000-000000000000',
      };
      const response = await api.call(operation, {
        path,
        plainHttp: true,
        key: 'query',
        followRedirects: false,
        checks: 'safety',
        ...(target.data.token
          ? { token: target.data.token, headers: { 'Content-Type': 'application/json' } }
          : {}),
      });
      const redirectToHttps =
        response.status >= 300 &&
        response.status < 400 &&
        (response.headers.location ?? '').startsWith('https:');
      const refused = response.status >= 400;
      expect(
        redirectToHttps || refused,
        `over HTTP: ${response.status} ${response.headers.location ?? ''}`,
      ).toBe(true);
      expect(response.headers.location ?? '', 'the redirect carries no key').not.toContain('apiKey');
    });
  }

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
  }) => {
    for (const { operation, options } of samples(target).samples) {
      if (contract.operation(operation).requestBody) continue;
      const response = await api.call(operation, {
        ...options,
        body: { unexpected: true },
        checks: 'safety',
      });
      expect(response.status, operation).toBeLessThan(500);
      if (target.kind === 'mock') {
        expect(response.status, operation).toBe(400);
        expect((response.json as { message: string }).message, operation).toMatch(/Not supported/);
      }
    }
  });

  test('fields the contract does not name are listed as drift and never fail @HTTP-03', async ({
    api,
    target,
    observations,
  }) => {
    const pageId = need(target.data.pageId, 'CLM_PAGE_ID');
    const response = await api.call('getPageMainContent', { path: { pageId } });
    expect(response.status).toBeLessThan(500);
    // The mock's page items carry `location`, which the contract does not name.
    if (target.kind === 'mock')
      expect(observations.drift.map((d) => d.field)).toContain('pageItems[].location');
  });

  test('no input, however malformed, is answered with a 5xx @HTTP-04 @property', async ({
    api,
    contract,
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
  });
});
