import { DAY } from '../../lib/time.ts';
import type { Answer } from '../../lib/conformance-diff/compare.ts';
import { walkToFullPage, type PageWalk } from '../../lib/conformance-diff/full-page.ts';
import { pageLimit } from '../../lib/conformance-diff/page-limit.ts';
import { comparePages } from '../../lib/conformance-diff/page-compare.ts';
import { diffRequests } from '../../lib/conformance-diff/requests.ts';
import { loadContract, type Contract } from '../../lib/contract/index.ts';
import { expect, test } from '../fixtures.ts';

const BASE = 'https://feed.example';
const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const change = {
  type: 'http://www.ft.com/thing/ThingChangeType/UPDATE',
  id: 'http://www.ft.com/thing/7348edd8-0403-11de-845b-000077b07658',
  apiUrl: 'https://api.ft.com/content/7348edd8-0403-11de-845b-000077b07658',
};

function page(url: string, size: number, next: string): Answer {
  const value = {
    requestUrl: url,
    notifications: Array.from({ length: size }, () => change),
    links: [{ href: next, rel: 'next' }],
  };
  return {
    url,
    status: 200,
    mediaType: 'application/json',
    headers: {},
    body: { kind: 'json', value },
    failures: [],
  };
}

test.describe('conformance:diff, the walk to a full page', () => {
  test('the limit is read from the contract, else from the rule that states it', async () => {
    const contract = await loadContract();
    expect(pageLimit(contract, 'listNotifications')).toEqual({
      field: 'notifications',
      limit: 200,
      rule: 'NOTIF-06',
      source: "the contract's maxItems",
    });
    const unbounded = { properties: { notifications: { type: 'array' } } };
    const without = {
      rules: contract.rules,
      response: () => ({ response: { content: { 'application/json': { schema: unbounded } } } }),
    } as unknown as Contract;
    expect(pageLimit(without, 'listNotifications')).toMatchObject({ limit: 200, source: 'rule NOTIF-06' });
  });

  test('each start further back follows at most three pages, and the first full page ends the walk', async () => {
    const asked: string[] = [];
    const walk = await walkToFullPage({
      page: { field: 'notifications', limit: 200, source: 'test' },
      now: NOW,
      firstUrl: (since) => `${BASE}/content/notifications?since=${since}`,
      ask: (url) => {
        asked.push(url);
        const since = Date.parse(new URL(url).searchParams.get('since')!);
        // Quiet until ten days back, where a burst fills a page.
        return Promise.resolve(page(url, NOW - since >= 10 * DAY ? 200 : 50, `${url}&page=${asked.length}`));
      },
    });
    expect(walk.sizes).toEqual([50, 50, 50, 50, 50, 50, 200]);
    expect(walk.full).toBe(true);
    expect(walk.note).toContain('7 page(s) walked from `since` 1, 3, 10 days back');
    expect(asked).toHaveLength(7);
  });
});

test.describe('conformance:diff, how pages are compared', () => {
  const walkOf = (size: number, next: string): PageWalk => {
    const answer = page(`${BASE}/content/notifications?since=x`, size, next);
    const value = (answer.body as { value: { notifications: []; links: [] } }).value;
    return { answer, page: value, sizes: [size], full: size >= 200, note: 'walked' };
  };
  const compare = async (mock: PageWalk, live: PageWalk) => {
    const contract = await loadContract();
    const request = diffRequests(contract).find((r) => r.id === 'listNotifications full-page')!;
    return comparePages(
      contract,
      request,
      request.page!,
      { mock, live },
      { mock: BASE, live: BASE },
    ).differences.map((d) => [d.aspect, d.at, d.class]);
  };
  const next = `${BASE}/content/notifications?since=2026-11-12T12:00:00.000Z&page=abc`;

  test('a page over the limit on the service only: the service breaks the contract', async () => {
    expect(await compare(walkOf(200, next), walkOf(201, next))).toEqual([
      ['page size', '/notifications', 'service-breaks-contract'],
    ]);
  });

  test('a next link of a page with changes without since: page alone is drift, the contract is silent', async () => {
    const alone = `${BASE}/content/notifications?page=abc`;
    expect(await compare(walkOf(200, next), walkOf(200, alone))).toEqual([
      ['next link', 'query keys', 'contract-silent'],
    ]);
  });

  test('a next link without what its page needs: the service breaks the contract', async () => {
    const [sinceAlone, pageAlone] = [next.replace('&page=abc', ''), `${BASE}/content/notifications?page=abc`];
    expect(await compare(walkOf(200, next), walkOf(200, sinceAlone))).toContainEqual([
      'next link',
      'query keys',
      'service-breaks-contract',
    ]);
    expect(await compare(walkOf(0, next), walkOf(0, pageAlone))).toContainEqual([
      'next link',
      'query keys',
      'service-breaks-contract',
    ]);
  });

  test('a next link on another path or with a key of its own: the contract is silent', async () => {
    const elsewhere = `${BASE}/feed/next?since=2026-11-12T12:00:00.000Z&page=abc&region=eu`;
    expect(await compare(walkOf(200, next), walkOf(200, elsewhere))).toEqual([
      ['next link', 'path', 'contract-silent'],
      ['next link', 'query keys', 'contract-silent'],
    ]);
  });
});
