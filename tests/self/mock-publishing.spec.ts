import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { SUITE_MOCK } from '../../rig/suite-mock.ts';
import { createMock, type Mock } from '../../mock/server.ts';

const [HOUR, DAY] = [3_600_000, 86_400_000];
/** A moment of the real clock, as a wall clock given to the mock reads it. */
const T1 = Date.parse('2026-11-20T09:13:27.481Z');

interface Page {
  notifications: { id: string; type: string; lastModified: string; publishReference: string }[];
  links: { href: string }[];
}

/** A mock on the real clock whose wall reads `wall.now`: moved by the test, never by itself. */
async function publishingMock(at: number, seed = 1): Promise<{ mock: Mock; wall: { now: number } }> {
  const wall = { now: at };
  const mock = await createMock({ seed, publishPerDay: 1_000, wall: () => wall.now });
  return { mock, wall };
}

/** One page of the feed, over plain HTTP: its text as sent, and its body. */
async function page(mock: Mock, href: string): Promise<{ text: string; body: Page }> {
  const url = href.replace(/^https?:\/\/[^/]+/, mock.httpUrl);
  const response = await fetch(url, { headers: { 'X-Api-Key': mock.state.examples().key } });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { text, body: JSON.parse(text) as Page };
}

/** Follows next links from `href` until an empty page (or `bound` pages): the pages' texts and changes. */
async function walk(mock: Mock, href: string, bound = 50) {
  const texts: string[] = [];
  const changes: Page['notifications'] = [];
  for (let i = 0; i < bound; i++) {
    const { text, body } = await page(mock, href);
    href = body.links[0]!.href;
    if (body.notifications.length === 0) return { texts, changes, next: href };
    texts.push(text);
    changes.push(...body.notifications);
  }
  throw new Error(`the walk did not end within ${bound} pages`);
}

const sinceUrl = (mock: Mock, since: number) =>
  `${mock.url}/content/notifications?since=${new Date(since).toISOString()}`;

/** The log's changes from `from` on, as text: time, type, item. */
function changesFrom(mock: Mock, from: number): string[] {
  const log = mock.state.log;
  return log.slice(log.firstAtOrAfter(from), log.length).map((c) => `${c.time} ${c.type} ${c.contentId}`);
}

/** The pages' texts of one mock as another would write them: its origin in place of this one's. */
const as = (texts: string[], from: Mock, to: Mock) =>
  texts.map((t) => t.replaceAll(from.httpUrl, to.httpUrl));

/** The first pages of the suite's own mock and its examples, hashed: they change only on purpose. */
const SUITE_MOCK_PAGES = '5dc6a75aac8c53b6696c74c26c2506a198da47b14d322a7320be7307f7c935bc';

test.describe.configure({ mode: 'parallel' });
test.setTimeout(60_000);

test.describe('the publishing mock across restarts: a feed that is a function of the seed and the time', () => {
  test('two mocks of one seed, started hours apart, serve the same feed at the same moment', async () => {
    const [a, b] = [await publishingMock(T1), await publishingMock(T1 + 5 * HOUR + 37_123)];
    try {
      a.wall.now = b.wall.now = T1 + 6 * HOUR;
      const window = a.wall.now - 90 * DAY;
      // Each catches up on its first request: the same changes, items and times in the whole window.
      const oldest = await Promise.all([a.mock, b.mock].map((m) => page(m, sinceUrl(m, window + 60_000))));
      expect(changesFrom(a.mock, window).length).toBeGreaterThan(85_000);
      expect(changesFrom(b.mock, window)).toEqual(changesFrom(a.mock, window));
      // The same bytes, page tokens and publish references included: the oldest page and the newest.
      expect(as([oldest[1]!.text], b.mock, a.mock)).toEqual([oldest[0]!.text]);
      const since = a.wall.now - 6 * HOUR;
      const [wa, wb] = [
        await walk(a.mock, sinceUrl(a.mock, since)),
        await walk(b.mock, sinceUrl(b.mock, since)),
      ];
      expect(wa.changes.length).toBeGreaterThan(100);
      expect(as(wb.texts, b.mock, a.mock)).toEqual(wa.texts);
      expect(b.mock.state.examples()).toEqual(a.mock.state.examples());
    } finally {
      await Promise.all([a.mock.close(), b.mock.close()]);
    }
  });

  test('a next link kept from one mock, followed on a restarted one of the same seed, delivers exactly the changes made since', async () => {
    const a = await publishingMock(T1);
    const first = await walk(a.mock, sinceUrl(a.mock, T1 - HOUR)).finally(() => a.mock.close());
    const last = first.changes.at(-1)!;
    const b = await publishingMock(T1 + 3 * HOUR + 1_234);
    try {
      const kept = await walk(b.mock, first.next);
      // What a fresh since gives after the last change the first walk delivered.
      const fresh = await walk(b.mock, sinceUrl(b.mock, Date.parse(last.lastModified) - 1));
      const named = (changes: Page['notifications']) =>
        changes.map((n) => `${n.type} ${n.id} ${n.lastModified} ${n.publishReference}`);
      const at = named(fresh.changes).indexOf(named([last])[0]!);
      expect(at, 'the last change delivered, the same on the restarted mock').toBeGreaterThanOrEqual(0);
      expect(kept.changes.length).toBeGreaterThan(50);
      expect(named(kept.changes)).toEqual(named(fresh.changes.slice(at + 1)));
    } finally {
      await b.mock.close();
    }
  });
});

test.describe('the publishing mock over a day', () => {
  test('over a day some 1,000 changes name many items; created and updated items are served, the advertised ones never deleted', async () => {
    const { mock, wall } = await publishingMock(T1, 7);
    try {
      const examples = mock.state.examples();
      const { restrictedContentId, contentId, key } = examples;
      const before = mock.state.log.length;
      for (let hour = 1; hour <= 24; hour++) {
        wall.now = T1 + hour * HOUR;
        await page(mock, sinceUrl(mock, wall.now - HOUR));
      }
      const day = mock.state.log.slice(before, mock.state.log.length);
      expect(day.length).toBeGreaterThan(800);
      expect(day.length).toBeLessThan(1_300);
      const count = (type: string) => day.filter((c) => c.type === type).length;
      expect(count('UPDATE')).toBeGreaterThan(day.length * 0.8);
      expect([count('CREATE'), count('DELETE')].every((n) => n > 0)).toBe(true);
      expect(new Set(day.map((c) => c.contentId)).size).toBeGreaterThan(600);
      // Over the whole log, history and day alike: the advertised items and those pages show are never deleted.
      const all = mock.state.log.slice(0, mock.state.log.length);
      const shown = [...mock.state.pages.values()].flatMap((p) => p.mainContent.map((i) => i.contentId));
      const kept = new Set([contentId, restrictedContentId, ...shown]);
      expect(all.filter((c) => c.type === 'DELETE' && kept.has(c.contentId))).toEqual([]);
      // Every item a change of the day names exists; a created one, or one updated and not deleted since, is served.
      const deleted = new Set(day.filter((c) => c.type === 'DELETE').map((c) => c.contentId));
      for (const change of day.filter((c) => !deleted.has(c.contentId)).slice(-60)) {
        const response = await fetch(`${mock.httpUrl}/content/${change.contentId}`, {
          headers: { 'X-Api-Key': key },
        });
        expect(response.status, `${change.type} ${change.contentId}`).toBe(200);
      }
      // Nor does a deletion a test publishes without naming the item.
      const [manual] = mock.publish([{ type: 'DELETE' }]);
      expect(kept.has(manual!.contentId)).toBe(false);
      for (const id of [contentId, restrictedContentId])
        expect(mock.state.content.get(id)?.deleted).toBe(false);
      expect(mock.state.content.get(restrictedContentId)?.restricted).toBe(true);
      expect(mock.state.content.get(contentId)?.restricted).toBe(false);
      // A reset forgets the day; catching up again publishes the same changes.
      mock.reset();
      expect(mock.state.log.length).toBe(before);
      mock.state.catchUp();
      expect(mock.state.log.slice(before, mock.state.log.length)).toEqual(day);
    } finally {
      await mock.close();
    }
  });
});

test.describe('the publishing mock and the fixed-clock mock of one seed', () => {
  test('advertise a content item of one shape, an Article with its body, so conformance:diff between them reads the same', async () => {
    const { mock } = await publishingMock(T1);
    const fixed = await createMock({ ...SUITE_MOCK });
    try {
      const item = async (m: Mock) => {
        const response = await fetch(`${m.httpUrl}/content/${m.state.examples().contentId}`, {
          headers: { 'X-Api-Key': m.state.examples().key },
        });
        return {
          status: response.status,
          body: (await response.json()) as { type: string; bodyXML?: string },
        };
      };
      const [live, still] = [await item(mock), await item(fixed)];
      expect(live.body.type).toBe(still.body.type);
      expect(live.body.type).toMatch(/Article$/);
      expect([typeof live.body.bodyXML, typeof still.body.bodyXML]).toEqual(['string', 'string']);
    } finally {
      await Promise.all([mock.close(), fixed.close()]);
    }
  });
});

test.describe('the mock on a fixed clock', () => {
  test("the suite's own mock, on its fixed clock, serves the same bytes as before", async () => {
    const mock = await createMock({ ...SUITE_MOCK });
    try {
      const hash = createHash('sha256').update(JSON.stringify(mock.state.examples()));
      let href = sinceUrl(mock, Date.parse(SUITE_MOCK.now) - 89 * DAY);
      for (let i = 0; i < 40; i++) {
        const { text, body } = await page(mock, href);
        hash.update(text.replaceAll(mock.httpUrl, 'http://mock'));
        href = body.links[0]!.href;
      }
      expect(mock.state.log.length).toBe(20_000);
      expect(hash.digest('hex')).toBe(SUITE_MOCK_PAGES);
    } finally {
      await mock.close();
    }
  });
});
