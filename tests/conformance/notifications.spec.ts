import { LEFT_OUT_OF_REQUEST_URL } from '../../lib/allowances.ts';
import fc from 'fast-check';
import {
  atMostRuns,
  iso8601OnlySince,
  knownSince,
  notRfc3339,
  outOfRangeSince,
  parameterCheck,
  SINCE_WINDOW,
  sinceInFuture,
  sinceInWindow,
  sinceTooOld,
  withCoverage,
  withKnown,
} from '../../lib/arbitraries/index.ts';
import { nextLink, type FeedPage } from '../../lib/paging/walk.ts';
import { says } from '../../lib/claims.ts';
import { expect, test } from '../fixtures.ts';
import { DAY, iso, listAt, typeOf, uuidOf, UUID, walkSince } from './feed-support.ts';
import { describesCause } from './samples.ts';

const thingId = new RegExp(`thing/${UUID}$`);
const contentUrl = new RegExp(`content/${UUID}$`);
const contentPath = new RegExp(`/content/${UUID}$`);

// Walks, paging and the order of changes: notifications-paging.spec.ts.
test.describe('the change feed: since required and well formed', () => {
  test('since is required @NOTIF-01', async ({ api }) => {
    expect((await api.call('listNotifications', {})).status).toBe(400);
  });

  test('a next link stripped of its since gets 400: the page token does not stand in for it @NOTIF-01', async ({
    api,
    target,
    decided,
  }) => {
    // A week back: the link's own page holds changes, so a token answered with another page shows.
    const page = (await listAt(api, iso(target.now() - 7 * DAY))).json as FeedPage;
    const next = new URL(nextLink(page)!);
    next.searchParams.delete('since');
    expect(next.searchParams.get('page')).toBeTruthy();
    const stripped = await api.raw({ url: next.toString() });
    // The real feed's next links may carry page alone: live, a token may stand in for since.
    const at = { operation: 'listNotifications', field: 'since' };
    if (decided('page-token-without-since', stripped.status, at) === 'decided') return;
    // Standing in for since, it gives the page of its link as given (a last page may have grown).
    const got = (stripped.json as FeedPage).notifications;
    const given = ((await api.raw({ url: nextLink(page)! })).json as FeedPage).notifications;
    expect(got.slice(0, given.length), 'the link as given').toEqual(given.slice(0, got.length));
    if (given.length === 0) expect(got, 'the link as given: an empty page').toEqual([]);
  });

  test('since that is not an RFC 3339 timestamp gets 400 @NOTIF-02 @property', async ({
    api,
    contract,
    target,
    fcParams,
  }) => {
    const isDateTime = parameterCheck(contract, 'listNotifications', 'since');
    // Every ISO 8601 form RFC 3339 refuses, each run, then text drawn at random.
    const named = iso8601OnlySince(target.now());
    await fc.assert(
      fc.asyncProperty(notRfc3339(target.now(), isDateTime), async (since) => {
        const form = named.find((c) => c.value === since)?.form ?? 'drawn';
        expect((await listAt(api, since)).status, `${form}: ${since}`).toBe(400);
      }),
      withCoverage(
        fcParams,
        named.map((c) => c.value),
        2,
      ),
    );
  });
});

test.describe('the change feed: since in range, in the future, inside and outside the 90-day window', () => {
  test('since with a field out of range gets 400, not a time rolled over into range @NOTIF-02', async ({
    api,
    target,
  }) => {
    for (const { form, value } of outOfRangeSince(target.now()))
      expect((await listAt(api, value)).status, `${form}: ${value}`).toBe(400);
  });

  test('since in the future gets 400 @NOTIF-03 @property', async ({ api, target, decided, fcParams }) => {
    await fc.assert(
      fc.asyncProperty(sinceInFuture(target.now()), async (since) => {
        const response = await listAt(api, since);
        // The interface says what a client must send, not what the service answers: FT's sibling
        // feed answers an empty page. Live, that is drift; a change from the future never is.
        const at = { operation: 'listNotifications', field: 'since', case: since };
        if (decided('future-since', response.status, at) === 'decided') return;
        expect((response.json as FeedPage).notifications, `changes after ${since}`).toEqual([]);
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

  test('since inside the 90-day window gets 200 @NOTIF-04 @property', async ({
    api,
    target,
    promises,
    fcParams,
  }) => {
    // Live, two draws past the edges: every form of since (notifications-forms.spec.ts) is another
    // instant inside the window on every run, within the same budget.
    const params = promises.unmetered ? fcParams : atMostRuns(fcParams, 5);
    await fc.assert(
      fc.asyncProperty(sinceInWindow(target.now()), async (since) => {
        expect((await listAt(api, since)).status).toBe(200);
      }),
      withKnown(params, knownSince(target.now()).inWindow),
    );
  });

  test('since just over 90 days old gets 400, just under gets 200, to two hours and to ten minutes @NOTIF-04', async ({
    api,
    target,
  }) => {
    // Ten minutes stays clear of the minute of clock skew the rule leaves either side of the edge.
    for (const margin of [2 * 3_600_000, 10 * 60_000]) {
      const now = target.now();
      expect((await listAt(api, iso(now - SINCE_WINDOW - margin))).status, `${margin} ms over`).toBe(400);
      expect((await listAt(api, iso(now - SINCE_WINDOW + margin))).status, `${margin} ms under`).toBe(200);
    }
  });
});

test.describe('the change feed: the shape of a page and of each notification in it', () => {
  test('a page matches the schema and requestUrl is the URL requested @NOTIF-05', async ({
    api,
    target,
    decided,
  }) => {
    const since = iso(target.now() - 2 * DAY);
    // With `type` too, which the contract does not name: Articles, what an ordinary key gets anyway.
    const response = await api.call('listNotifications', { query: { since, type: 'Article' } });
    expect(response.status).toBe(200);
    const requested = new URL(response.url);
    const echoed = new URL((response.json as { requestUrl: string }).requestUrl);
    expect(echoed.pathname).toBe(requested.pathname);
    expect(echoed.searchParams.get('since')).toBe(since);
    // Live, the gateway leaves type and monitor out of requestUrl (drift); nothing else may go.
    const at = { operation: 'listNotifications', status: 200, field: 'requestUrl' };
    const kept = (name: string) =>
      decided('request-url-keeps-parameters', echoed.searchParams.has(name), { ...at, case: name });
    const left = LEFT_OUT_OF_REQUEST_URL.filter(
      (name) => requested.searchParams.has(name) && kept(name) === 'other',
    );
    const keys = (url: URL) => [...url.searchParams.keys()].filter((k) => !left.includes(k)).sort();
    expect(keys(echoed)).toEqual(keys(requested));
    // A page with nothing new matches the schema too (on the mock, a second ago holds no change).
    const latest = await listAt(api, iso(target.now() - 1_000));
    expect(latest.status).toBe(200);
    expect(Array.isArray((latest.json as FeedPage).notifications), 'notifications is a list').toBe(true);
  });

  test('every page, the empty one included, has one absolute next link with since and page @NOTIF-07', async ({
    api,
    target,
    promises,
    decided,
  }) => {
    for (const since of [iso(target.now() - 60_000), iso(target.now() - DAY)]) {
      const page = (await listAt(api, since)).json as FeedPage;
      const next = page.links.filter((l) => l.rel === 'next');
      expect(next).toHaveLength(1);
      const href = new URL(next[0]!.href);
      expect(href.protocol).toMatch(/^https?:$/);
      // A page with changes needs its page token, an empty page its since. Live, each may lack the
      // other, as the real feed's links do: page alone, since alone (drift, x-expect).
      const carried = ['since', 'page'].filter((name) => href.searchParams.get(name));
      const by = carried.length === 2 ? 'since and page' : carried.length ? `${carried[0]} alone` : 'nothing';
      const form = `${page.notifications.length > 0 ? 'a page with changes' : 'an empty page'} links by ${by}`;
      decided('next-link-since-and-page', form, {
        operation: 'listNotifications',
        status: 200,
        field: 'links[].href',
      });
    }
    if (promises.controlsData) {
      const empty = (await listAt(api, iso(target.now() - 1_000))).json as FeedPage;
      expect(empty.notifications).toHaveLength(0);
      expect(nextLink(empty)).toBeDefined();
    }
  });

  test('each notification names one uuid in id and apiUrl, with the documented suffixes @NOTIF-08', async ({
    api,
    target,
    decided,
  }) => {
    const page = (await listAt(api, iso(target.now() - 3 * DAY))).json as FeedPage;
    for (const n of page.notifications) {
      // The interface names the segment, not its case: upper case is the mock's, and drift live.
      decided('change-type-upper-case', n.type, {
        operation: 'listNotifications',
        status: 200,
        field: 'type',
      });
      // Asked only where it fails: each expect is a step of the test, and a page holds 200.
      if (!thingId.test(n.id)) expect(n.id).toMatch(thingId);
      if (!contentUrl.test(n.apiUrl)) expect(n.apiUrl).toMatch(contentUrl);
      if (uuidOf(n.apiUrl) !== uuidOf(n.id)) expect(uuidOf(n.apiUrl), n.id).toBe(uuidOf(n.id));
    }
  });
});

test.describe('the change feed: what the client skips, and what a 400 says', () => {
  test('the client skips content it may not read or whose type it does not know, and goes on @NOTIF-13 @CONT-03', async ({
    api,
    target,
    promises,
  }) => {
    const key = target.data.limitedKey ?? target.key;
    const since = iso(target.now() - (promises.unmetered ? 10 : 1) * DAY);
    const walk = await walkSince(api, target, since, promises.unmetered ? 40 : 3);
    const distinct = [...new Map(walk.notifications.map((n) => [n.id, n])).values()];
    const sample = promises.unmetered ? distinct : distinct.slice(0, 10);
    const skipped: string[] = [];
    let read = 0;
    for (const n of sample) {
      if (!['CREATE', 'UPDATE', 'DELETE'].includes(typeOf(n)!)) {
        skipped.push(`${n.id}: unknown type`);
        continue;
      }
      // Each check asked only where it fails: each expect is a step of the test, and a walk of
      // ten days holds thousands of changes.
      const path = new URL(n.apiUrl).pathname;
      if (!contentPath.test(path))
        expect(path, says('CONT-03', 'apiUrl names /content/{itemId}')).toMatch(contentPath);
      const response = await api.call('getContent', {
        path: { itemId: uuidOf(n.apiUrl)! },
        key: { header: key },
      });
      if (response.status === 403 || response.status === 404) {
        skipped.push(`${n.id}: ${response.status}`);
        // A refusal says why, and does not carry what it refuses.
        const refusal = (response.json ?? {}) as Record<string, unknown>;
        for (const field of ['title', 'standfirst', 'bodyXML'])
          if (refusal[field] !== undefined)
            expect(refusal[field], says('NOTIF-13', `${field} in a ${response.status}`)).toBeUndefined();
      } else {
        // Any other refusal is one a client that skips 403 and 404 cannot tell from a bad key.
        if (response.status !== 200)
          expect(response.status, says('NOTIF-13', `${n.apiUrl} is read or refused with 403 or 404`)).toBe(
            200,
          );
        read++;
      }
    }
    expect(read + skipped.length, says('CONT-03', 'every notification read or skipped')).toBe(sample.length);
    if (promises.controlsData) {
      expect(read, says('CONT-03', 'some content read')).toBeGreaterThan(0);
      expect(
        skipped.some((s) => s.endsWith('403')),
        says('NOTIF-13', 'restricted content skipped'),
      ).toBe(true);
      // A deleted item's 404 is CONT-01's: without it there is nothing to skip.
      expect(
        skipped.some((s) => s.endsWith('404')),
        says('CONT-01', 'deleted content skipped'),
      ).toBe(true);
    }
  });

  test('a 400 says what was wrong @NOTIF-14', async ({ api, target, decided }) => {
    const future = iso(target.now() + DAY);
    // Each request, and the rule that gives it its 400: without that 400 there is no body to read.
    const requests: [string | undefined, string][] = [
      [undefined, 'NOTIF-01'],
      ['yesterday', 'NOTIF-02'],
      [future, 'NOTIF-03'],
      [iso(target.now() - 100 * DAY), 'NOTIF-04'],
    ];
    for (const [since, rule] of requests) {
      const response = await api.call('listNotifications', { query: { since } });
      // Live, a future since may be an empty 200 (NOTIF-03): then there is no 400 to read.
      const at = { operation: 'listNotifications', field: 'since', case: `since ${since}` };
      if (since === future) {
        if (decided('future-since', response.status, at) === 'other') continue;
      } else expect(response.status, says(rule, `since ${since ?? 'missing'} gets 400`)).toBe(400);
      expect(describesCause(response.json), JSON.stringify(response.json)).toBe(true);
    }
  });
});
