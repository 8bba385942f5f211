import type { ApiResponse, CallOptions } from '../../lib/client/client.ts';
import { says } from '../../lib/claims.ts';
import { expect, test, type TargetFixture } from '../fixtures.ts';
import { samples, type Sample } from './samples.ts';

/*
 * Every method on every path: HEAD and OPTIONS, which are safe, everywhere; the methods the contract
 * does not list only on the bundled mock, whose answer (405 with Allow, OPTIONS 204 with Allow) is
 * this project's decision: the interface says nothing of them.
 */

/** Headers that belong to one exchange, not to the resource: HEAD may differ from GET in them. */
const PER_EXCHANGE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** One request per operation, the image service's included where the target names an image. */
function requests(target: TargetFixture): Sample[] {
  const imageUri = target.data.imageUri;
  const images: Sample[] = imageUri
    ? ['getImageRaw', 'getImageDebug', 'getImageMetadata'].map((operation) => ({
        operation,
        options: { path: { imageUri } },
      }))
    : [];
  return [...samples(target).samples, ...(target.imagesUrl ? images : [])];
}

const resourceHeaders = (response: ApiResponse) =>
  Object.keys(response.headers)
    .filter((name) => !PER_EXCHANGE.has(name))
    .sort();

test.describe('every method on every path', () => {
  test('HEAD agrees with GET in status and headers, with no body and never a 5xx @HTTP-04', async ({
    api,
    contract,
    target,
    decided,
  }) => {
    const gets = requests(target).filter((s) => contract.operation(s.operation).method === 'get');
    expect(gets.length, 'paths with a GET').toBeGreaterThan(5);
    for (const { operation, options } of gets) {
      const get = await api.call(operation, options);
      const head = await api.call(operation, { ...options, method: 'HEAD' });
      expect(head.status, `HEAD ${operation}`).toBe(get.status);
      expect(head.text, `HEAD ${operation} has no body`).toBe('');
      expect(head.headers['content-type'], `HEAD ${operation}`).toBe(get.headers['content-type']);
      const at = { operation, status: head.status, field: 'headers', case: `HEAD ${operation}` };
      decided('head-headers-as-get', resourceHeaders(head), { ...at, asked: resourceHeaders(get) });
    }
  });

  test('OPTIONS is never answered with a 5xx; the mock lists the methods in Allow @HTTP-04', async ({
    api,
    contract,
    target,
    decided,
  }) => {
    for (const { operation, options } of requests(target)) {
      const { status, headers } = await api.call(operation, { ...options, method: 'OPTIONS' });
      expect(status, `OPTIONS ${operation}`).toBeLessThan(500);
      const listed = contract.operation(operation).method.toUpperCase();
      const allow = headers.allow?.split(/,\s*/) ?? [];
      const missing = [listed, 'OPTIONS', ...(listed === 'GET' ? ['HEAD'] : [])].filter(
        (m) => !allow.includes(m),
      );
      decided(
        'options-allow',
        { status, missing },
        { operation, status, field: 'Allow', case: `OPTIONS ${operation}` },
      );
    }
  });

  test('a method the contract does not list gets 405 with Allow and a JSON message @HTTP-04 @HTTP-01', async ({
    api,
    contract,
    target,
    promises,
  }) => {
    test.skip(
      !promises.unsafeRequests,
      'a nightly run never sends an unsafe method to production: ' +
        'methods the contract does not list are tried on the bundled mock only',
    );
    for (const { operation, options } of requests(target)) {
      const listed = contract.operation(operation).method.toUpperCase();
      for (const method of ['GET', ...UNSAFE].filter((m) => m !== listed)) {
        const sent: CallOptions = { ...options, method, checks: 'safety' };
        const response = await api.call(operation, sent);
        expect(response.status, `${method} ${operation}`).toBe(405);
        expect(response.headers.allow?.split(/,\s*/), `${method} ${operation}`).toContain(listed);
        // A 405 is an error like any other: JSON, with a message (HTTP-01).
        const what = says('HTTP-01', `${method} ${operation}`);
        expect(response.headers['content-type'], what).toMatch(/^application\/json/);
        expect((response.json as { message?: unknown } | undefined)?.message, what).toEqual(
          expect.any(String),
        );
      }
    }
  });
});
