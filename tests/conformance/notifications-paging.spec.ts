import { windowStart } from '../../lib/arbitraries/index.ts';
import type { ApiClient } from '../../lib/client/client.ts';
import { says } from '../../lib/claims.ts';
import {
  boundaryRepeats,
  continues,
  identity,
  repeatedPage,
  repeatInsidePage,
  stepsOf,
} from '../../lib/paging/sequence.ts';
import { walkFeed, type FeedPage, type Walk } from '../../lib/paging/walk.ts';
import { expect, test, type TargetFixture } from '../fixtures.ts';
import {
  busiestTime,
  DAY,
  iso,
  listAt,
  pages,
  ruleOfLost,
  typeOf,
  uuidOf,
  walkSince,
  type Notification,
} from './feed-support.ts';

/** A walk on a live service ends within this many pages or is reported as unended. */
const LIVE_PAGE_BOUND = 20;

// The change feed walked: page size, following next links, short and empty pages, what appears.
test.describe('the change feed: the size of a page', () => {
  test('no page holds more than 200 notifications @NOTIF-06', async ({ api, target, promises }) => {
    const walk = await walkSince(api, target, target.now() - 45 * DAY, promises.unmetered ? 60 : 5);
    const sizes = walk.pages.map((p) => p.notifications.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(200);
    // A walk that never reaches a full page did not follow its links to the changes it names.
    if (promises.controlsData) expect(sizes, says('NOTIF-09', 'the walk reads a full page')).toContain(200);
  });

  test('a page-size parameter that the interface does not name cannot lift the limit of 200 @NOTIF-06', async ({
    api,
    target,
    promises,
  }) => {
    // On the mock, just before its largest burst inside the window, where a page could hold most.
    const at = promises.controlsData
      ? busiestTime(target.mock!.state.log, windowStart(target.now()) + DAY).time - 1
      : target.now() - DAY;
    for (const name of ['limit', 'pageSize', 'maxResults']) {
      const response = await api.call('listNotifications', { query: { since: iso(at), [name]: '1000' } });
      // Rejecting the unknown parameter is as good as ignoring it.
      if (response.status === 400) continue;
      expect(response.status, name).toBe(200);
      expect((response.json as FeedPage).notifications.length, name).toBeLessThanOrEqual(200);
    }
  });
});

test.describe('the change feed: every change after since, once, in order', () => {
  test('following next links delivers every change after since exactly once, in order @NOTIF-09', async ({
    api,
    mock,
    target,
  }) => {
    const since = windowStart(target.now()) + DAY;
    const walk = await walkSince(api, target, since, 2_000);
    expect(walk.ended).toBe(true);
    const log = mock.state.log;
    const changes = log.slice(log.firstAfter(since), log.length);
    const delivered = walk.notifications.map((n) => `${uuidOf(n.id)} ${typeOf(n)}`);
    const expected = changes.map((c) => `${c.contentId} ${c.type}`);
    // Shown from the first difference on: a diff of thousands of changes is slow and unreadable.
    const at = expected.findIndex((change, i) => delivered[i] !== change);
    if (at >= 0)
      expect(delivered.slice(at, at + 5), `changes ${at + 1} to ${at + 5} of ${expected.length}`).toEqual(
        expected.slice(at, at + 5),
      );
    expect(delivered.length, 'changes delivered').toBe(expected.length);
    // The walk crossed a burst of more than 200 changes at one time, which no single page can hold.
    expect(busiestTime(log, since).count).toBeGreaterThan(200);
  });

  test('since is compared to the millisecond: a change at since is not delivered, one just after it is @NOTIF-09', async ({
    api,
    mock,
    target,
  }) => {
    const log = mock.state.log;
    // A change alone in its second, at a time that is not a whole second, followed by another item.
    const alone = (i: number) => {
      const [before, change, after] = [log.at(i - 1)!, log.at(i)!, log.at(i + 1)!];
      const second = change.time - (change.time % 1000);
      return (
        change.time % 1000 !== 0 &&
        before.time < second &&
        after.time > change.time &&
        after.contentId !== change.contentId
      );
    };
    let i = log.firstAfter(target.now() - 30 * DAY);
    while (!alone(i)) i++;
    const firstAfter = async (since: number) => {
      const n = ((await listAt(api, iso(since))).json as FeedPage).notifications[0]!;
      return `${uuidOf(n.id)} ${typeOf(n)}`;
    };
    const label = (c: { contentId: string; type: string }) => `${c.contentId} ${c.type}`;
    expect(await firstAfter(log.at(i)!.time - 1)).toBe(label(log.at(i)!));
    expect(await firstAfter(log.at(i)!.time)).toBe(label(log.at(i + 1)!));
  });
});

test.describe('the change feed: a walk across pages, judged by what every key gets', () => {
  test('a walk on the live service crosses pages, repeats no page, and a walk from a later since continues it in order @NOTIF-09', async ({
    api,
    target,
    promises,
    observations,
  }) => {
    test.skip(promises.controlsData, 'the mock is walked against its ground truth instead');
    const { walk, since } = await crossingWalk(api, target);
    const page = repeatedPage(walk.pages);
    expect(page, `page ${page} holds the changes of the page before it`).toBeUndefined();
    // Delivery at least once repeats a change only where a request starts (lib/allowances.ts).
    const inside = repeatInsidePage(walk.pages);
    expect(inside, `page ${inside?.page} lists ${inside?.change} twice`).toBeUndefined();
    // A change again at a page boundary is drift, counted, not a failure.
    for (let i = boundaryRepeats(walk.pages); i > 0; i--)
      observations.drift.push({
        operation: 'listNotifications',
        status: 200,
        field: 'notifications[]',
        note: 'a change repeated at a page boundary (delivery at least once)',
      });
    expectTimeOrder(walk.pages);
    // Order and completeness from the sequence alone: a walk from halfway to now must join the
    // first and go on as it does.
    const later = iso(Date.parse(since) + (target.now() - Date.parse(since)) / 2);
    const second = await walkSince(api, target, later, LIVE_PAGE_BOUND);
    const agreement = continues(stepsOf(walk.pages), stepsOf(second.pages), second.ended);
    expect(
      agreement,
      agreement.agree
        ? ''
        : `the walk from ${later} parts from the walk from ${since} at its change ${agreement.at + 1}: ` +
            `${agreement.later ?? 'nothing'} where the first walk has ${agreement.earlier ?? 'nothing'}`,
    ).toMatchObject({ agree: true });
  });
});

/**
 * A walk far enough back that it crosses a page boundary with changes on both sides: a quiet feed
 * needs a longer window. Each walk is bounded, and a crossing ends the search.
 */
async function crossingWalk(api: ApiClient, target: TargetFixture) {
  const crossing = (w: Walk) =>
    w.pages.some((p, i) => p.notifications.length > 0 && (w.pages[i + 1]?.notifications.length ?? 0) > 0);
  let since = '';
  let walk: Walk | undefined;
  for (const days of [1, 7, 30, 89]) {
    since = iso(target.now() - days * DAY);
    walk = await walkSince(api, target, since, LIVE_PAGE_BOUND);
    if (crossing(walk)) break;
  }
  if (!crossing(walk!))
    test.info().annotations.push({
      type: 'note',
      description: `the feed held too few changes since ${since} to cross a page boundary`,
    });
  return { walk: walk!, since };
}

/**
 * Where every change carries its time (a key with the policies for it), changes come in time order
 * and none twice, but where a page starts (at least once). An ordinary key's changes carry no time.
 */
function expectTimeOrder(walked: FeedPage[]): void {
  const all = walked.flatMap((p) => p.notifications) as Notification[];
  if (!all.every((n) => n.lastModified)) {
    test
      .info()
      .annotations.push({ type: 'note', description: 'no lastModified: order judged by the sequence' });
    return;
  }
  const steps = stepsOf(walked);
  const seen = new Set<string>();
  all.forEach((n, i) => {
    if (!steps[i]!.again)
      expect(seen.has(identity(n)), `${identity(n)} delivered twice across the walk`).toBe(false);
    seen.add(identity(n));
    if (i > 0)
      expect(
        Date.parse(n.lastModified!),
        `change ${i + 1} (${n.id}) is older than the one before it`,
      ).toBeGreaterThanOrEqual(Date.parse(all[i - 1]!.lastModified!));
  });
}

test.describe('the change feed: short and empty pages, and the kinds of change', () => {
  test('fewer than 200 does not mean the end: more can follow a short page @NOTIF-10', async ({
    api,
    mock,
    target,
  }) => {
    const since = target.now() - 30 * DAY;
    const walk = await walkSince(api, target, since, 2_000);
    expect(walk.ended, says('NOTIF-09', 'the walk ends on an empty page')).toBe(true);
    const log = mock.state.log;
    const expected = log.slice(log.firstAfter(since), log.length).map((c) => `${c.contentId} ${c.type}`);
    const delivered = walk.notifications.map((n) => `${uuidOf(n.id)} ${typeOf(n)}`);
    // Every change in order up to a short page, and none after it: the service took it for the end.
    if (delivered.every((d, i) => d === expected[i])) {
      const lost = log.slice(log.firstAfter(since), log.length)[delivered.length];
      const rule = await ruleOfLost(pages(api), `${target.baseUrl}/content/notifications`, lost, 'NOTIF-10');
      expect(delivered.length, says(rule, 'changes delivered up to the short page that ended the walk')).toBe(
        expected.length,
      );
    }
    const shortThenMore = walk.pages.findIndex(
      (p, i) =>
        p.notifications.length > 0 &&
        p.notifications.length < 200 &&
        (walk.pages[i + 1]?.notifications.length ?? 0) > 0,
    );
    expect(shortThenMore, 'a short page followed by more changes').toBeGreaterThanOrEqual(0);
    expect(delivered, says('NOTIF-09', 'every change after since, once')).toHaveLength(expected.length);
  });

  test('the next link of an empty page delivers exactly the changes made since @NOTIF-11', async ({
    api,
    mock,
    target,
  }) => {
    const first = await walkSince(api, target, target.now() - DAY, 100);
    expect(first.ended, says('NOTIF-09', 'the walk ends on an empty page')).toBe(true);
    // The next poll, minutes later; then the one after, a day later, as a nightly keeps its link.
    let link = first.next!;
    const seen = new Set(first.notifications.map((n) => JSON.stringify(n)));
    for (const wait of [5 * 60_000, DAY]) {
      mock.advance(wait);
      const published = mock.publish([{ type: 'UPDATE' }, { type: 'UPDATE' }, { type: 'CREATE' }]);
      const later = await walkFeed(pages(api), link, 10);
      // A change delivered twice, or out of order, is the walk's failure (NOTIF-09), not the link's.
      const again = later.notifications.filter(
        (n) => seen.has(JSON.stringify(n)) || !seen.add(JSON.stringify(n)),
      );
      expect(again, says('NOTIF-09', 'no change delivered twice')).toEqual([]);
      const got = later.notifications.map((n) => `${uuidOf(n.id)} ${typeOf(n)}`);
      const made = published.map((c) => `${c.contentId} ${c.type}`);
      const lost = published.find((c) => !got.includes(`${c.contentId} ${c.type}`));
      const rule = await ruleOfLost(pages(api), `${target.baseUrl}/content/notifications`, lost, 'NOTIF-11');
      expect([...got].sort(), says(rule, 'the changes made since')).toEqual([...made].sort());
      expect(got, says('NOTIF-09', 'in the order published')).toEqual(made);
      expect(later.ended, says('NOTIF-09', 'the walk ends on an empty page')).toBe(true);
      link = later.next!;
    }
  });

  test('creations, updates and deletions all appear in the feed @NOTIF-12', async ({ api, mock, target }) => {
    mock.advance(60_000);
    const since = iso(target.now() - 1);
    mock.publish([{ type: 'CREATE' }, { type: 'UPDATE' }, { type: 'DELETE' }]);
    const types = ((await listAt(api, since)).json as FeedPage).notifications.map(typeOf);
    // Every kind is NOTIF-12's; each change once and in order, the walk's (NOTIF-09).
    expect(new Set(types), 'every kind of change').toEqual(new Set(['CREATE', 'UPDATE', 'DELETE']));
    expect(types, says('NOTIF-09', 'each once, in the order published')).toEqual([
      'CREATE',
      'UPDATE',
      'DELETE',
    ]);
  });
});
