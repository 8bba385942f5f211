import { expect, test } from '@playwright/test';
import { ALL_CHECKS, runChecks, SAFETY_CHECKS, type Exchange } from '../../lib/checks/index.ts';
import { driftOf } from '../../lib/client/drift.ts';
import { documentAt, withImageSource } from '../../lib/client/target.ts';
import type { Target } from '../../lib/client/types.ts';
import { emptyObservations } from '../../lib/client/observations.ts';
import type { ApiResponse } from '../../lib/client/types.ts';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { judgedBody, loadContract } from '../../lib/contract/index.ts';
import { linksOf, unfollowable } from '../../lib/links/follow.ts';
import { flowsOf, followFlow } from '../../lib/links/flows.ts';

/**
 * What a live run allows of the real service (FACTS: HTML image errors, `{"error"}` refusals, search
 * hits without `apiUrl`, a required `source`), and what still fails: the mock's exact answers, a
 * 200 or a 5xx in HTML.
 */

const contract = await loadContract();
const IMAGES = 'https://img.example/__origami/service/image/v2';
const TARGET: Target = {
  kind: 'live',
  baseUrl: 'https://api.example',
  imagesUrl: IMAGES,
  imageSource: 'clm-conformance',
  key: 'a-live-key-0123456789',
  insecureTls: false,
};
const PAGE = '<html><body><h1>Bad Request</h1></body></html>';

function answer(operationId: string | undefined, status: number, type: string, body: unknown): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    operation: operationId ? contract.operation(operationId) : undefined,
    document: 'images',
    method: 'GET',
    url: `${IMAGES}/images/raw/x`,
    requestHeaders: {},
    status,
    responseHeaders: { 'content-type': type },
    text,
    json: typeof body === 'string' ? undefined : body,
  };
}

const failed = (e: Exchange, strict: boolean, checks = ALL_CHECKS) =>
  runChecks(checks, e, { contract, secrets: [], strict }).map((f) => f.check);

const HTML = 'text/html; charset=utf-8';

test.describe('an image service error in HTML', () => {
  test('conforms, live and on the mock (which sends one to a client that prefers HTML), as JSON does', () => {
    for (const operation of ['getImageRaw', 'getImageDebug', 'getImageMetadata'])
      for (const status of [400, 404]) {
        const page = answer(operation, status, HTML, PAGE);
        expect(failed(page, false), `${operation} ${status}`).toEqual([]);
        expect(failed(page, true), `${operation} ${status}`).toEqual([]);
        expect(driftOf(contract, page.operation!, status, HTML, judgedBody(HTML, undefined, PAGE))).toEqual(
          [],
        );
        const json = answer(operation, status, 'application/json', { message: 'width must be a number' });
        expect(failed(json, true)).toEqual([]);
      }
  });

  test('still fails as a success, as a 5xx, or where the main service answers', () => {
    expect(failed(answer('getImageRaw', 200, HTML, PAGE), false)).toContain('contentTypeDocumented');
    expect(failed(answer('getImageRaw', 500, HTML, PAGE), false)).toContain('noServerError');
    expect(failed(answer('getImageRaw', 503, HTML, PAGE), false)).toContain('noServerError');
    const main = { ...answer(undefined, 404, HTML, PAGE), document: 'main' as const };
    expect(failed(main, false, SAFETY_CHECKS)).toEqual(['contentTypeDocumented']);
  });

  test('to a URL no operation has (a removed mode or endpoint) passes on the image service only', () => {
    expect(failed(answer(undefined, 404, HTML, PAGE), false, SAFETY_CHECKS)).toEqual([]);
    expect(failed(answer(undefined, 400, 'application/json', { message: 'gone' }), true)).toEqual([]);
    expect(documentAt(TARGET, `${IMAGES.replace(/v2$/, 'v1')}/images/raw?imageset=x`)).toBe('images');
    expect(documentAt(TARGET, 'https://api.example/content/x')).toBe('main');
    expect(documentAt(TARGET, 'https://elsewhere.example/x')).toBeUndefined();
  });
});

test.describe('source on every image service request', () => {
  const raw = `${IMAGES}/images/raw/ftcms%3Aabc`;

  test('is added as written, unless the request names its own or leaves it out', () => {
    expect(withImageSource(TARGET, raw, {})).toBe(`${raw}?source=clm-conformance`);
    expect(withImageSource(TARGET, `${raw}?width=5`, {})).toBe(`${raw}?width=5&source=clm-conformance`);
    expect(withImageSource(TARGET, `${raw}?`, {})).toBe(`${raw}?source=clm-conformance`);
    expect(withImageSource(TARGET, `${raw}?source=mine`, {})).toBe(`${raw}?source=mine`);
    expect(withImageSource(TARGET, `${raw}?width=5`, { imageSource: false })).toBe(`${raw}?width=5`);
  });

  test('goes to every version of the image service, and nowhere else', () => {
    const v1 = `${IMAGES.replace(/v2$/, 'v1')}/images/raw?imageset=o-icons`;
    expect(withImageSource(TARGET, v1, {})).toBe(`${v1}&source=clm-conformance`);
    for (const other of ['https://api.example/content/x', 'https://img.example/elsewhere?a=1'])
      expect(withImageSource(TARGET, other, {})).toBe(other);
  });

  test('is configured by CLM_IMAGE_SOURCE: a plain name, clm-conformance by default', () => {
    expect(loadConfig({}).imageSource).toBe('clm-conformance');
    expect(loadConfig({ CLM_IMAGE_SOURCE: 'my-news-app' }).imageSource).toBe('my-news-app');
    for (const bad of ['has space', 'a&b=c', '-leading', 'x'.repeat(101)])
      expect(() => loadConfig({ CLM_IMAGE_SOURCE: bad }), bad).toThrow(ConfigError);
  });
});

test.describe('a content refusal as the real gateway words it', () => {
  test('{"error": "access denied"} passes live as drift, and fails against the mock', () => {
    for (const operation of ['getContent', 'getEnrichedContent']) {
      const denied = {
        ...answer(operation, 403, 'application/json', { error: 'access denied' }),
        document: 'main' as const,
      };
      expect(failed(denied, false), operation).toEqual([]);
      expect(failed(denied, true), operation).toEqual(['meetsExpectations']);
      const drift = driftOf(contract, denied.operation!, 403, 'application/json', denied.json);
      expect(drift.map((d) => d.field).sort()).toEqual(['(body)', 'error']);
    }
  });
});

test.describe('a search hit without apiUrl', () => {
  const uuid = '7348edd8-0403-11de-845b-000077b07658';
  const hits = {
    results: [
      { results: [{ id: uuid, apiUrl: `http://api.example/content/${uuid}` }, { id: 'podcast' }] },
      {},
    ],
  };

  test('is named as not followed by the link that reads it, and a group with no hits is not', () => {
    const link = linksOf(contract).find((l) => l.name === 'fullVersion')!;
    expect(unfollowable(link, hits, 5)).toEqual(['/results/0/results/1 has no apiUrl']);
  });

  test('starts no chain of a flow, and the flow says so', async () => {
    const flow = flowsOf(contract).find((f) => f.id === 'searchContent → getContent → getEnrichedContent')!;
    const asked: string[] = [];
    const skipped: string[] = [];
    const chains = await followFlow(contract, flow, hits, {
      call: (operationId, options) => {
        asked.push(`${operationId} ${options.path!.itemId}`);
        return Promise.resolve({ status: 200, json: { id: options.path!.itemId } } as ApiResponse);
      },
      limit: 5,
      observations: emptyObservations(),
      skipped: (note) => skipped.push(note),
    });
    expect(asked).toEqual([`getContent ${uuid}`, `getEnrichedContent ${uuid}`]);
    expect(chains).toHaveLength(1);
    expect(skipped).toEqual(['searchContent → getContent: /results/0/results/1 has no apiUrl']);
  });
});
