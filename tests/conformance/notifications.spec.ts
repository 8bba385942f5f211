import fc from 'fast-check';
import {
  knownNotRfc3339,
  knownSince,
  notRfc3339,
  parameterCheck,
  sinceInFuture,
  sinceInWindow,
  sinceTooOld,
  sinceWithOffset,
  withKnown,
} from '../../lib/arbitraries/index.ts';
import type { ApiClient } from '../../lib/client/client.ts';
import { nextLink, walkFeed, type FeedPage } from '../../lib/paging/walk.ts';
import { expect, test } from '../fixtures.ts';
import { describesCause } from './samples.ts';

const DAY = 86_400_000;
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** A walk on a live service ends within this many pages or is reported as unended. */
const LIVE_PAGE_BOUND = 20;

const iso = (ms: number) => new Date(ms).toISOString();

type Notification = FeedPage['notifications'][number] & { lastModified?: string; publishReference?: string };
const uuidOf = (uri: string) => new RegExp(`(${UUID})$`).exec(uri)?.[1];
const typeOf = (n: { type: string }) => n.type.split('/').pop();

/** Fetches a feed page through the client: every page is checked against the contract. */
function pages(api: ApiClient) {
  return async (url: string): Promise<FeedPage> => {
    const response = await api.raw({ url });
    expect(response.status, url).toBe(200);
    return response.json as FeedPage;
  };
}

async function listAt(api: ApiClient, since: string) {
  return api.call('listNotifications', { query: { since } });
}

test.describe('the change feed', () => {
  test('since is required @NOTIF-01', async ({ api }) => {
    expect((await api.call('listNotifications', {})).status).toBe(400);
  });

  test('since that is not an RFC 3339 timestamp gets 400 @NOTIF-02 @property', async ({
    api,
    contract,
    target,
    fcParams,
  }) => {
    const isDateTime = parameterCheck(contract, 'listNotifications', 'since');
    await fc.assert(
      fc.asyncProperty(notRfc3339(target.now(), isDateTime), async (since) => {
        expect((await listAt(api, since)).status).toBe(400);
      }),
      withKnown(fcParams, knownNotRfc3339(target.now(), isDateTime)),
    );
  });

  test('a valid since with an offset other than Z gets 200 or 400, never a 5xx @NOTIF-02 @property', async ({
    api,
    target,
    fcParams,
  }) => {
    await fc.assert(
      fc.asyncProperty(sinceWithOffset(target.now()), async (since) => {
        expect([200, 400]).toContain((await listAt(api, since)).status);
      }),
      fcParams,
    );
  });

  test('since in the future gets 400 @NOTIF-03 @property', async ({ api, target, fcParams }) => {
    await fc.assert(
      fc.asyncProperty(sinceInFuture(target.now()), async (since) => {
        expect((await listAt(api, since)).status).toBe(400);
      }),
      withKnown(fcParams, knownSince(target.now()).future),
    );
  });

  test('since older than 90 days gets 400 @NOTIF-04 @property', async ({ api, target, fcParams }) => {
    await fc.assert(
      fc.asyncProperty(sinceTooOld(target.now()), async (since) => {
        expect((await listAt(api, since)).status).toBe(400);
      }),
      withKnown(fcParams, knownSince(target.now()).tooOld),
    );
  });

  test('since inside the 90-day window gets 200 @NOTIF-04 @property', async ({ api, target, fcParams }) => {
    await fc.assert(
      fc.asyncProperty(sinceInWindow(target.now()), async (since) => {
        expect((await listAt(api, since)).status).toBe(200);
      }),
      withKnown(fcParams, knownSince(target.now()).inWindow),
    );
  });

  test('since just over 90 days old gets 400, just under gets 200 @NOTIF-04', async ({ api, target }) => {
    const now = target.now();
    expect((await listAt(api, iso(now - 90 * DAY - 2 * 3_600_000))).status).toBe(400);
    expect((await listAt(api, iso(now - 90 * DAY + 2 * 3_600_000))).status).toBe(200);
  });

  test('a page matches the schema and requestUrl is the URL requested @NOTIF-05', async ({ api, target }) => {
    const since = iso(target.now() - 2 * DAY);
    const response = await listAt(api, since);
    expect(response.status).toBe(200);
    const requested = new URL(response.url);
    const echoed = new URL((response.json as { requestUrl: string }).requestUrl);
    expect(echoed.pathname).toBe(requested.pathname);
    expect(echoed.searchParams.get('since')).toBe(since);
    expect([...echoed.searchParams.keys()].sort()).toEqual([...requested.searchParams.keys()].sort());
  });

  test('no page holds more than 200 notifications @NOTIF-06', async ({ api, target }) => {
    const walk = await walkFeed(
      pages(api),
      `${target.baseUrl}/content/notifications?since=${iso(target.now() - 45 * DAY)}`,
      target.kind === 'mock' ? 60 : 5,
    );
    const sizes = walk.pages.map((p) => p.notifications.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(200);
    if (target.kind === 'mock') expect(sizes).toContain(200);
  });

  test('every page, the empty one included, has one absolute next link with since and page @NOTIF-07', async ({
    api,
    target,
  }) => {
    for (const since of [iso(target.now() - 60_000), iso(target.now() - DAY)]) {
      const page = (await listAt(api, since)).json as FeedPage;
      const next = page.links.filter((l) => l.rel === 'next');
      expect(next).toHaveLength(1);
      const href = new URL(next[0]!.href);
      expect(href.protocol).toMatch(/^https?:$/);
      expect(href.searchParams.get('since')).toBeTruthy();
      expect(href.searchParams.get('page')).toBeTruthy();
    }
    if (target.kind === 'mock') {
      const empty = (await listAt(api, iso(target.now() - 1_000))).json as FeedPage;
      expect(empty.notifications).toHaveLength(0);
      expect(nextLink(empty)).toBeDefined();
    }
  });

  test('each notification names one uuid in id and apiUrl, with the documented suffixes @NOTIF-08', async ({
    api,
    target,
  }) => {
    const page = (await listAt(api, iso(target.now() - 3 * DAY))).json as FeedPage;
    for (const n of page.notifications) {
      expect(n.type).toMatch(/ThingChangeType\/[A-Z_]+$/);
      expect(n.id).toMatch(new RegExp(`thing/${UUID}$`));
      expect(n.apiUrl).toMatch(new RegExp(`content/${UUID}$`));
      expect(uuidOf(n.apiUrl), n.id).toBe(uuidOf(n.id));
    }
  });

  test('following next links delivers every change after since exactly once, in order @NOTIF-09', async ({
    api,
    mock,
    target,
  }) => {
    const since = target.now() - 89 * DAY;
    const walk = await walkFeed(
      pages(api),
      `${target.baseUrl}/content/notifications?since=${iso(since)}`,
      2_000,
    );
    expect(walk.ended).toBe(true);
    const log = mock.state.log;
    const changes = log.slice(log.firstAfter(since), log.length);
    expect(walk.notifications.map((n) => `${uuidOf(n.id)} ${typeOf(n)}`)).toEqual(
      changes.map((c) => `${c.contentId} ${c.type}`),
    );
    // The walk crossed a burst of more than 200 changes at one time, which no single page can hold.
    const perTime = new Map<number, number>();
    for (const c of changes) perTime.set(c.time, (perTime.get(c.time) ?? 0) + 1);
    expect(Math.max(...perTime.values())).toBeGreaterThan(200);
  });

  test('a walk on the live service crosses pages, repeats no change, and keeps time order @NOTIF-09', async ({
    api,
    target,
  }) => {
    test.skip(target.kind === 'mock', 'the mock is walked against its ground truth instead');
    // Far enough back that the walk crosses a page boundary with changes on both sides: a quiet
    // feed needs a longer window. Each walk is bounded, and a crossing ends the search.
    const crossing = (w: Awaited<ReturnType<typeof walkFeed>>) =>
      w.pages.some((p, i) => p.notifications.length > 0 && (w.pages[i + 1]?.notifications.length ?? 0) > 0);
    let since = '';
    let walk: Awaited<ReturnType<typeof walkFeed>> | undefined;
    for (const days of [1, 7, 30, 89]) {
      since = iso(target.now() - days * DAY);
      walk = await walkFeed(
        pages(api),
        `${target.baseUrl}/content/notifications?since=${since}`,
        LIVE_PAGE_BOUND,
      );
      if (crossing(walk)) break;
    }
    const all = walk!.notifications as Notification[];
    const crossed = crossing(walk!);
    if (!crossed)
      test.info().annotations.push({
        type: 'note',
        description: `the feed held too few changes since ${since} to cross a page boundary`,
      });
    // A change is known by its item, type and time; without a time, two updates of one item look
    // alike, so then only a change repeated across a page boundary can be told.
    const identity = (n: Notification) =>
      `${n.id} ${n.type} ${n.lastModified ?? ''} ${n.publishReference ?? ''}`;
    const timed = all.every((n) => n.lastModified ?? n.publishReference);
    if (timed) {
      const seen = new Set<string>();
      for (const n of all) {
        expect(seen.has(identity(n)), `${identity(n)} delivered twice across the walk`).toBe(false);
        seen.add(identity(n));
      }
    }
    walk!.pages.forEach((page, i) => {
      const last = page.notifications[page.notifications.length - 1];
      const next = walk!.pages[i + 1]?.notifications[0];
      if (last && next)
        expect(identity(next), `page ${i + 2} starts with the last change of page ${i + 1}`).not.toBe(
          identity(last),
        );
    });
    // Changes come in the order they were made, within pages and across them.
    const times = all.map((n) => Date.parse(n.lastModified ?? ''));
    if (times.every((t) => !Number.isNaN(t)))
      times.forEach((t, i) => {
        if (i > 0)
          expect(t, `change ${i + 1} (${all[i]!.id}) is older than the one before it`).toBeGreaterThanOrEqual(
            times[i - 1]!,
          );
      });
    else test.info().annotations.push({ type: 'note', description: 'no lastModified: order not checked' });
  });

  test('fewer than 200 does not mean the end: more can follow a short page @NOTIF-10', async ({
    api,
    mock,
    target,
  }) => {
    const since = target.now() - 30 * DAY;
    const walk = await walkFeed(
      pages(api),
      `${target.baseUrl}/content/notifications?since=${iso(since)}`,
      2_000,
    );
    const shortThenMore = walk.pages.findIndex(
      (p, i) =>
        p.notifications.length > 0 &&
        p.notifications.length < 200 &&
        (walk.pages[i + 1]?.notifications.length ?? 0) > 0,
    );
    expect(shortThenMore, 'a short page followed by more changes').toBeGreaterThanOrEqual(0);
    const log = mock.state.log;
    expect(walk.notifications).toHaveLength(log.length - log.firstAfter(since));
  });

  test('the next link of an empty page delivers exactly the changes made since @NOTIF-11', async ({
    api,
    mock,
    target,
  }) => {
    const first = await walkFeed(
      pages(api),
      `${target.baseUrl}/content/notifications?since=${iso(target.now() - DAY)}`,
      100,
    );
    expect(first.ended).toBe(true);
    mock.state.clock.advance(5 * 60_000);
    const published = mock.publish([{ type: 'UPDATE' }, { type: 'UPDATE' }, { type: 'CREATE' }]);
    const later = await walkFeed(pages(api), first.next!, 10);
    expect(later.notifications.map((n) => `${uuidOf(n.id)} ${typeOf(n)}`)).toEqual(
      published.map((c) => `${c.contentId} ${c.type}`),
    );
  });

  test('creations, updates and deletions all appear in the feed @NOTIF-12', async ({ api, mock, target }) => {
    mock.state.clock.advance(60_000);
    const since = iso(target.now() - 1);
    mock.publish([{ type: 'CREATE' }, { type: 'UPDATE' }, { type: 'DELETE' }]);
    const page = (await listAt(api, since)).json as FeedPage;
    expect(page.notifications.map(typeOf)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  test('the client skips content it may not read or whose type it does not know, and goes on @NOTIF-13 @CONT-03', async ({
    api,
    target,
  }) => {
    const key = target.data.limitedKey ?? target.key;
    const since = iso(target.now() - (target.kind === 'mock' ? 10 : 1) * DAY);
    const walk = await walkFeed(
      pages(api),
      `${target.baseUrl}/content/notifications?since=${since}`,
      target.kind === 'mock' ? 40 : 3,
    );
    const distinct = [...new Map(walk.notifications.map((n) => [n.id, n])).values()];
    const sample = target.kind === 'mock' ? distinct : distinct.slice(0, 10);
    const skipped: string[] = [];
    let read = 0;
    for (const n of sample) {
      if (!['CREATE', 'UPDATE', 'DELETE'].includes(typeOf(n)!)) {
        skipped.push(`${n.id}: unknown type`);
        continue;
      }
      expect(new URL(n.apiUrl).pathname, 'apiUrl names /content/{itemId}').toMatch(
        new RegExp(`/content/${UUID}$`),
      );
      const response = await api.call('getContent', {
        path: { itemId: uuidOf(n.apiUrl)! },
        key: { header: key },
      });
      if (response.status === 403 || response.status === 404) skipped.push(`${n.id}: ${response.status}`);
      else {
        expect(response.status).toBe(200);
        read++;
      }
    }
    expect(read + skipped.length).toBe(sample.length);
    if (target.kind === 'mock') {
      expect(read).toBeGreaterThan(0);
      expect(
        skipped.some((s) => s.endsWith('403')),
        'restricted content skipped',
      ).toBe(true);
      expect(
        skipped.some((s) => s.endsWith('404')),
        'deleted content skipped',
      ).toBe(true);
    }
  });

  test('a 400 says what was wrong @NOTIF-14', async ({ api, target }) => {
    for (const since of [undefined, 'yesterday', iso(target.now() + DAY), iso(target.now() - 100 * DAY)]) {
      const response = await api.call('listNotifications', { query: { since } });
      expect(response.status).toBe(400);
      expect(describesCause(response.json), JSON.stringify(response.json)).toBe(true);
    }
  });
});
