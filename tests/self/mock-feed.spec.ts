import type { APIRequestContext } from '@playwright/test';
import { walkFeed, type FeedPage } from '../../lib/paging/walk.ts';
import type { Mock } from '../../mock/server.ts';
import { expect, MOCK_NOW, test } from '../fixtures.ts';

const DAY = 86_400_000;
const KEY = 'mock-key-primary';

function fetcher(request: APIRequestContext) {
  return async (url: string): Promise<FeedPage> => {
    const response = await request.get(url, { headers: { 'X-Api-Key': KEY }, ignoreHTTPSErrors: true });
    expect(response.status(), url).toBe(200);
    return (await response.json()) as FeedPage;
  };
}

/** The ground truth: every change after `since`, as `<uuid> <TYPE>`. */
function truth(mock: Mock, since: number): string[] {
  const log = mock.state.log;
  return log.slice(log.firstAfter(since), log.length).map((c) => `${c.contentId} ${c.type}`);
}

const delivered = (n: FeedPage['notifications'][number]) => `${n.id.slice(-36)} ${n.type.split('/').pop()}`;

test.describe('the mock change feed', () => {
  test('delivers every change after since exactly once, in order, across bursts and short pages', async ({
    mock,
    request,
  }) => {
    const since = Date.parse(MOCK_NOW) - 89 * DAY;
    const walk = await walkFeed(
      fetcher(request),
      `${mock.url}/content/notifications?since=${new Date(since).toISOString()}`,
      1_000,
    );
    expect(walk.ended).toBe(true);
    expect(walk.notifications.map(delivered)).toEqual(truth(mock, since));
    const sizes = walk.pages.map((p) => p.notifications.length);
    expect(Math.max(...sizes)).toBe(200);
    // Short pages before the end: fewer than 200 does not mean the end.
    expect(sizes.slice(0, -2).some((n) => n < 200)).toBe(true);
  });

  test('gives the changes published after an empty page to its saved next link, exactly', async ({
    mock,
    request,
  }) => {
    const since = Date.parse(MOCK_NOW) - 2 * DAY;
    const fetchPage = fetcher(request);
    const first = await walkFeed(
      fetchPage,
      `${mock.url}/content/notifications?since=${new Date(since).toISOString()}`,
      100,
    );
    expect(first.ended).toBe(true);
    mock.state.clock.advance(60_000);
    const published = mock.publish([{ type: 'CREATE' }, { type: 'UPDATE' }, { type: 'DELETE' }]);
    const later = await walkFeed(fetchPage, first.next!, 10);
    expect(later.notifications.map(delivered)).toEqual(published.map((c) => `${c.contentId} ${c.type}`));
  });

  test('keeps a burst of more than 200 changes at one time across pages', async ({ mock, request }) => {
    const log = mock.state.log;
    let burstStart = -1;
    const inWindow = log.firstAfter(Date.parse(MOCK_NOW) - 89 * DAY);
    for (let i = inWindow + 200; i < log.length; i++)
      if (log.at(i)!.time === log.at(i - 200)!.time) {
        burstStart = i - 200;
        break;
      }
    expect(burstStart).toBeGreaterThanOrEqual(0);
    const time = log.at(burstStart)!.time;
    const walk = await walkFeed(
      fetcher(request),
      `${mock.url}/content/notifications?since=${new Date(time - 1).toISOString()}`,
      10,
    );
    const size = log.firstAfter(time) - log.firstAtOrAfter(time);
    expect(size).toBeGreaterThan(200);
    expect(walk.notifications.slice(0, size).map(delivered)).toEqual(truth(mock, time - 1).slice(0, size));
  });
});
