import { PODCAST_HITS, podcastHitsAllowed } from '../../lib/allowances.ts';
import fc from 'fast-check';
import { atMostRuns, nearUuids, unknownUuid } from '../../lib/arbitraries/index.ts';
import { says } from '../../lib/claims.ts';
import { expect, need, needsControl, test } from '../fixtures.ts';
import { noteUnfollowable } from './link-sources.ts';

/** Ids one slip from a UUID, and one that is nothing like it: sent on every run. */
const NOT_UUIDS = [nearUuids().at(0)!, nearUuids().at(-1)!];

const V1 = [
  'getContentItemV1',
  'listNotificationsV1',
  'listPagesV1',
  'getPageV1',
  'getPageSkylineContent',
  'getPageMainContent',
];

test.describe('content endpoints', () => {
  for (const [operation, rule] of [
    ['getContent', 'CONT-01'],
    ['getEnrichedContent', 'CONT-02'],
  ] as const) {
    test(`${operation}: a known item gets 200, an unknown one 404 @${rule} @property`, async ({
      api,
      target,
      decided,
      fcParams,
    }) => {
      const itemId = need(target.data.contentId, 'CLM_CONTENT_ID');
      const known = await api.call(operation, { path: { itemId } });
      expect(known.status).toBe(200);
      expect((known.json as { id: string }).id.toLowerCase(), 'the item asked for').toMatch(
        new RegExp(`${itemId.toLowerCase()}$`),
      );
      await fc.assert(
        fc.asyncProperty(unknownUuid(), async (unknown) => {
          expect((await api.call(operation, { path: { itemId: unknown } })).status).toBe(404);
        }),
        atMostRuns(fcParams, 10),
      );
      // An id that is no UUID names no item either (a decision; live, the real service's 400 is drift).
      for (const notUuid of NOT_UUIDS) {
        const { status } = await api.call(operation, { path: { itemId: notUuid } });
        decided('item-id-not-uuid', status, { operation, field: 'itemId', case: notUuid });
      }
    });
  }

  test('items may lack attributes by type: a live blog has no bodyXML @CONT-01', async ({ api, mock }) => {
    const blog = [...mock.state.content.values()].find(
      (c) => c.kind === 'LiveBlogPost' && !c.deleted && !c.restricted,
    )!;
    const item = (await api.call('getContent', { path: { itemId: blog.id } })).json as Record<
      string,
      unknown
    >;
    expect(item.bodyXML).toBeUndefined();
    expect(item.title).toBe(blog.title);
  });

  test('a deleted item gets 404 from the content endpoints @CONT-01 @CONT-02', async ({ api, mock }) => {
    const deleted = [...mock.state.content.values()].find((c) => c.deleted)!;
    for (const [operation, rule] of [
      ['getContent', 'CONT-01'],
      ['getEnrichedContent', 'CONT-02'],
    ] as const)
      expect(
        (await api.call(operation, { path: { itemId: deleted.id } })).status,
        says(rule, operation),
      ).toBe(404);
  });
});

test.describe('content endpoints: search', () => {
  test('search returns items with some properties left out, each naming its full version @CONT-04', async ({
    api,
    contract,
  }) => {
    expect(contract.operation('searchContent').deprecated).toBe(false);
    const response = await api.call('searchContent', {
      body: { queryString: 'banks', resultContext: { maxResults: 5, aspects: ['title'] } },
    });
    expect(response.status).toBe(200);
    // Not deprecated: the service does not announce its end either (RFC 9745, RFC 8594).
    expect(response.headers).not.toHaveProperty('deprecation');
    expect(response.headers).not.toHaveProperty('sunset');
    const hits = (
      response.json as { results: { results?: { id?: string; apiUrl?: unknown; aspectSet?: unknown }[] }[] }
    ).results.flatMap((r) => r.results ?? []);
    // A rare podcast hit of the real service lacks apiUrl (lib/allowances.ts): only a podcast's, and rarely.
    const unnamed = hits.filter((hit) => typeof hit.apiUrl !== 'string');
    expect(
      unnamed.length,
      `${unnamed.length} of ${hits.length} hits name no full version: at most ${podcastHitsAllowed(hits.length)} may`,
    ).toBeLessThanOrEqual(podcastHitsAllowed(hits.length));
    for (const hit of unnamed)
      expect(hit.aspectSet, `the hit ${hit.id ?? '(no id)'} has no apiUrl and is no podcast`).toBe(
        PODCAST_HITS.aspectSet,
      );
    for (const hit of hits) {
      if (typeof hit.apiUrl !== 'string') {
        noteUnfollowable(`the podcast hit ${hit.id ?? '(no id)'} has no apiUrl`);
        continue;
      }
      const full = await api.raw({ url: hit.apiUrl });
      expect(full.operation, hit.apiUrl).toBe('getContent');
      expect([200, 403, 404]).toContain(full.status);
    }
  });

  test('a search with an empty query string gets an answer, never a 5xx @CONT-04', async ({ api }) => {
    const response = await api.call('searchContent', { body: { queryString: '' }, decides: ['CONT-04'] });
    expect(response.status).toBeLessThan(500);
    if (response.status === 200)
      expect(Array.isArray((response.json as { results?: unknown }).results), 'results is a list').toBe(true);
  });
});

test.describe('content endpoints: the deprecated v1 endpoints', () => {
  test('the v1 endpoints are marked deprecated and either conform or are gone @DEPR-01', async ({
    api,
    contract,
    target,
    decided,
  }) => {
    for (const id of V1) expect(contract.operation(id).deprecated, id).toBe(true);
    const d = target.data;
    const calls: [string, Record<string, string>][] = [
      ['listNotificationsV1', {}],
      ['listPagesV1', {}],
      ...(d.contentId
        ? [['getContentItemV1', { itemId: d.contentId }] as [string, Record<string, string>]]
        : []),
      ...(d.pageId
        ? (['getPageV1', 'getPageSkylineContent', 'getPageMainContent'].map((id) => [
            id,
            { pageId: d.pageId! },
          ]) as [string, Record<string, string>][])
        : []),
    ];
    const gone: string[] = [];
    for (const [operation, path] of calls) {
      // Conform or gone: any other answer, a 5xx included, is DEPR-01's.
      const response = await api.call(operation, { path, decides: ['DEPR-01'] });
      if (api.retired(response)) gone.push(`${operation} (${response.gone})`);
      else expect(response.status, operation).toBe(200);
    }
    if (gone.length) test.info().annotations.push({ type: 'gone', description: gone.join(', ') });
    decided('deprecated-served', gone, { operation: 'the v1 endpoints', field: '(operation)', case: 'gone' });
  });

  for (const status of [404, 410] as const) {
    test(`a retired v1 endpoint answering ${status} is reported gone, not failed @DEPR-01`, async ({
      api,
      mock,
      target,
    }) => {
      mock.state.v1Retirement = status;
      const pageId = target.data.pageId!;
      const calls: [string, Record<string, string>][] = [
        ['listNotificationsV1', {}],
        ['listPagesV1', {}],
        ['getContentItemV1', { itemId: target.data.contentId! }],
        ['getPageV1', { pageId }],
        ['getPageSkylineContent', { pageId }],
        ['getPageMainContent', { pageId }],
      ];
      for (const [operation, path] of calls)
        expect((await api.call(operation, { path, decides: ['DEPR-01'] })).status, operation).toBe(status);
    });
  }

  test('a page that no longer exists is gone from every v1 page endpoint @DEPR-01 @PAGE-06', async ({
    api,
    target,
    promises,
  }) => {
    needsControl(promises);
    for (const operation of ['getPageV1', 'getPageSkylineContent'])
      expect(
        (await api.call(operation, { path: { pageId: target.data.gonePageId! } })).status,
        operation,
      ).toBe(410);
  });
});
