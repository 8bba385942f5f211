import fc from 'fast-check';
import { atMostRuns, unknownUuid } from '../../lib/arbitraries/index.ts';
import type { ApiClient } from '../../lib/client/client.ts';
import { says } from '../../lib/claims.ts';
import { expect, need, needsControl, type TargetFixture, test } from '../fixtures.ts';
import { skipIfGone } from './gone.ts';

interface PageList {
  requestUrl: string;
  total: number;
  page: { id: string };
  pageItemsListName: string;
  pageItems: { id?: string; lifecycle: { initialPublishDateTime: string; lastPublishDateTime: string } }[];
}

function mainContent(
  api: ApiClient,
  pageId: string,
  query: Record<string, string> = {},
  key: 'header' | 'query' = 'header',
  headers: Record<string, string> = {},
) {
  return api.call('getPageMainContent', { path: { pageId }, query, key, headers });
}

/** A host no service owns, sent as X-Forwarded-Host: a requestUrl must not take it up. */
const FOREIGN_HOST = 'cache-poison.invalid';

/** Skips the test where a live service retired the endpoint: its known page is gone too (DEPR-01). */
async function skipIfRetired(api: ApiClient, target: TargetFixture): Promise<void> {
  if (target.promises.servesDeprecated) return;
  skipIfGone(api, await mainContent(api, need(target.data.pageId, 'CLM_PAGE_ID')));
}

/**
 * The main content of the configured page; skips the test where a live service removed the endpoint
 * (DEPR-01).
 */
async function currentMainContent(api: ApiClient, target: TargetFixture): Promise<PageList> {
  const response = await mainContent(api, need(target.data.pageId, 'CLM_PAGE_ID'));
  skipIfGone(api, response);
  expect(response.status).toBe(200);
  return response.json as PageList;
}

test.describe('page main content (deprecated v1)', () => {
  test('200 matches the page main-content schema @PAGE-01', async ({ api, target }) => {
    // The client validates the body against the contract; the helper expects the 200.
    await currentMainContent(api, target);
  });

  test('requestUrl is the URL requested without the key, also when the key was a query parameter @PAGE-02 @AUTH-07', async ({
    api,
    target,
    decided,
  }) => {
    const pageId = need(target.data.pageId, 'CLM_PAGE_ID');
    for (const key of ['header', 'query'] as const) {
      const response = await mainContent(api, pageId, { 'feature.blogposts': 'on' }, key, {
        'X-Forwarded-Host': FOREIGN_HOST,
      });
      if (response.status !== 200) continue;
      const echoed = new URL((response.json as PageList).requestUrl);
      expect(echoed.searchParams.has('apiKey'), says('AUTH-07', 'the key in requestUrl')).toBe(false);
      expect(echoed.pathname, says('PAGE-02', 'the path requested')).toBe(new URL(response.url).pathname);
      // Behind proxies a live service names its public origin, but never one a client made up.
      expect(echoed.host, says('PAGE-02', 'host taken from X-Forwarded-Host')).not.toBe(FOREIGN_HOST);
      const at = {
        operation: 'getPageMainContent',
        status: 200,
        field: 'requestUrl',
        what: 'the origin requested',
      };
      decided('page-request-url-origin', echoed.origin, { ...at, asked: new URL(response.url).origin });
      expect(echoed.searchParams.get('feature.blogposts'), says('PAGE-02', 'the query requested')).toBe('on');
    }
  });

  test('total counts pageItems, the list is main-content, and page.id is the requested id @PAGE-03', async ({
    api,
    target,
  }) => {
    const list = await currentMainContent(api, target);
    expect(list.total).toBe(list.pageItems.length);
    expect(list.pageItemsListName).toBe('main-content');
    expect(list.page.id).toBe(target.data.pageId);
  });
});

test.describe('page main content (deprecated v1): the feature.blogposts parameter', () => {
  test('feature.blogposts=off lists a subset of on, without blog posts; another value gets 400 @PAGE-04', async ({
    api,
    target,
    promises,
  }) => {
    needsControl(promises);
    const pageId = target.data.pageId!;
    const ids = async (flag: string) =>
      ((await mainContent(api, pageId, { 'feature.blogposts': flag })).json as PageList).pageItems.map(
        (i) => i.id!,
      );
    const on = await ids('on');
    const off = await ids('off');
    for (const id of off) expect(on, `${id} listed with off but not with on`).toContain(id);
    const kinds = async (list: string[]) =>
      Promise.all(
        list.map(
          async (itemId) =>
            ((await api.call('getContent', { path: { itemId } })).json as { type: string }).type,
        ),
      );
    expect((await kinds(off)).filter((t) => /BlogPost$/.test(t))).toEqual([]);
    expect(
      (await kinds(on)).some((t) => /BlogPost$/.test(t)),
      'the page has blog posts to filter',
    ).toBe(true);
    expect((await mainContent(api, pageId, { 'feature.blogposts': 'maybe' })).status).toBe(400);
  });
});

test.describe('page main content (deprecated v1): pages that do not exist or no longer exist', () => {
  test('a page that does not exist gets 404 with requestUrl and message @PAGE-05 @property', async ({
    api,
    target,
    fcParams,
  }) => {
    await skipIfRetired(api, target);
    await fc.assert(
      fc.asyncProperty(unknownUuid(), async (pageId) => {
        const response = await mainContent(api, pageId);
        expect(response.status).toBe(404);
        const body = response.json as { requestUrl?: string; message?: string };
        expect(body.requestUrl).toContain(pageId);
        expect(body.message).toBeTruthy();
      }),
      atMostRuns(fcParams, 10),
    );
  });

  test('a page that no longer exists gets 410 @PAGE-06', async ({ api, target }) => {
    const gonePageId = need(target.data.gonePageId, 'CLM_GONE_PAGE_ID');
    const response = await mainContent(api, gonePageId);
    if (response.status !== 410) await skipIfRetired(api, target);
    expect(response.status).toBe(410);
    // Nor does the list of pages still lead to it.
    const list = await api.call('listPagesV1', {});
    if (list.status === 200) {
      const ids = (list.json as { pages: { id: string }[] }).pages.map((p) => p.id);
      expect(ids, 'pages listed').not.toContain(gonePageId);
    }
  });
});

test.describe('page main content (deprecated v1): lifecycle timestamps', () => {
  test('lifecycle timestamps have milliseconds and the first publication is not after the last @PAGE-07', async ({
    api,
    target,
    promises,
    decided,
  }) => {
    const items = (await currentMainContent(api, target)).pageItems;
    if (promises.controlsData) expect(items.length).toBeGreaterThan(0);
    for (const { lifecycle } of items) {
      // Milliseconds are an expectation beyond what real services send: live, the client reports
      // their absence as drift (the contract's x-expect); the mock must keep them.
      for (const field of ['initialPublishDateTime', 'lastPublishDateTime'] as const)
        decided('lifecycle-milliseconds', lifecycle[field], {
          operation: 'getPageMainContent',
          status: 200,
          field,
        });
      expect(Date.parse(lifecycle.initialPublishDateTime)).toBeLessThanOrEqual(
        Date.parse(lifecycle.lastPublishDateTime),
      );
    }
  });
});
