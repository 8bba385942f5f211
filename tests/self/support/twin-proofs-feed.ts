import { expect } from '@playwright/test';
import type { Mock } from '../../../mock/server.ts';
import { toTimestamp } from '../../../mock/state/clock.ts';
import {
  HIDES_NEW_CHANGES,
  ask,
  feedAt,
  ids,
  image,
  iso,
  nextOf,
  published,
  thing,
  viaHttps,
  walk,
  type FeedPage,
  type Proof,
} from './twin.ts';

/** The next page of a page, followed over HTTPS. */
const after = (mock: Mock, page: FeedPage) => feedAt(mock, viaHttps(mock, nextOf(page).href));
const paramsOf = (page: FeedPage) => [...nextOf(page).searchParams.keys()];
/** A creation the default feed lists: an ordinary key's feed lists Articles only. */
const ARTICLE = { type: 'CREATE', kind: 'Article' } as const;

/** The feed's paging, as the real feed delivers it. */
export const FEED_PROOFS: Proof[] = [
  {
    behaviour: 'at-least-once',
    offAlongside: HIDES_NEW_CHANGES,
    does:
      'repeats the last change of a full page first on the next after some pages, and the newest change ' +
      'at the start of some later polls: never inside a page, never a loop',
    prove: (mock, on) =>
      published(mock, async () => {
        const burst = mock.publish(Array.from({ length: 2_050 }, () => ({ type: 'CREATE' as const })));
        const pages = await walk(mock, iso(mock, -1), 30);
        const delivered = pages.flatMap(ids);
        // What the default feed lists of the burst (an ordinary key's default may leave kinds out).
        const listed = new Set(burst.map((c) => thing(c.contentId)).filter((id) => delivered.includes(id)));
        expect(listed.size).toBeGreaterThan(1_000);
        const boundaries = pages.slice(1).filter((p) => p.notifications.length > 0);
        const repeatedAt = boundaries.filter(
          (p, i) => p.notifications[0]!.id === pages[i]!.notifications.at(-1)!.id,
        );
        // Some boundaries repeat, not all; every extra change is such a repeat, none inside a page.
        expect(delivered.length - listed.size).toBe(repeatedAt.length);
        if (on) expect(repeatedAt.length).toBeGreaterThan(0);
        expect(repeatedAt.length).toBeLessThan(on ? boundaries.length : 1);
        for (const page of pages) expect(new Set(ids(page)).size).toBe(page.notifications.length);
        // Polls: one change at a time, its empty page's link followed later.
        let repeats = 0;
        for (let poll = 0; poll < 8; poll++) {
          mock.advance(1_000);
          const [change] = mock.publish([{ type: 'UPDATE' }]);
          mock.advance(1_000);
          const [last] = await walk(mock, iso(mock, -1_500)).then((walked) => walked.slice(-1));
          mock.advance(60_000);
          const next = await after(mock, last!);
          if (ids(next)[0] === thing(change!.contentId)) repeats++;
          expect(ids(next).length).toBeLessThanOrEqual(1);
        }
        expect(repeats > 0).toBe(on);
        expect(repeats).toBeLessThan(8);
      }),
  },
  {
    behaviour: 'latest-per-item',
    does: 'lists one notification per item on a page, its latest event, and fills the page with others',
    offAlongside: HIDES_NEW_CHANGES,
    prove: (mock, on) =>
      published(mock, async () => {
        const [twice, other] = [mock.publish([ARTICLE])[0]!, mock.publish([ARTICLE])[0]!];
        mock.advance(1);
        mock.publish([{ ...ARTICLE, type: 'UPDATE', contentId: twice.contentId }]);
        mock.advance(1);
        const [page] = await walk(mock, iso(mock, -10));
        const listed = ids(page!);
        expect(listed).toEqual(
          on
            ? [thing(other.contentId), thing(twice.contentId)]
            : [thing(twice.contentId), thing(other.contentId), thing(twice.contentId)],
        );
        // Items in different pages are listed in each: a page's stretch is its own window.
        const burst = Array.from({ length: 250 }, () => (mock.advance(1), mock.publish([ARTICLE])[0]!));
        mock.advance(1);
        mock.publish([{ ...ARTICLE, type: 'UPDATE', contentId: burst[0]!.contentId }]);
        mock.advance(1);
        const pages = await walk(mock, iso(mock, -260));
        expect(pages[0]!.notifications).toHaveLength(200);
        expect(pages.flatMap(ids).filter((id) => id === thing(burst[0]!.contentId))).toHaveLength(2);
      }),
  },
  {
    behaviour: 'newest-withheld',
    does: 'lists no change of the newest ten seconds; a later poll lists it, the link losing nothing',
    // A poll's repeat (at least once) would add a change to what the later poll lists.
    offAlongside: ['at-least-once'],
    prove: (mock, on) =>
      published(mock, async () => {
        mock.advance(60_000);
        const since = iso(mock, -30_000);
        const [change] = mock.publish([ARTICLE]);
        mock.advance(2_000);
        const first = await walk(mock, since);
        expect(first.flatMap(ids)).toEqual(on ? [] : [thing(change!.contentId)]);
        mock.advance(10_000);
        const later = await after(mock, first.at(-1)!);
        expect(ids(later)).toEqual(on ? [thing(change!.contentId)] : []);
      }),
  },
  {
    behaviour: 'empty-next-since-only',
    offAlongside: HIDES_NEW_CHANGES,
    does: 'links an empty page by since alone, which later delivers exactly the changes made since',
    prove: (mock, on) =>
      published(mock, async () => {
        const since = iso(mock, -60_000);
        const empty = await feedAt(mock, `/content/notifications?since=${since}`);
        expect(empty.notifications).toEqual([]);
        expect(paramsOf(empty)).toEqual(on ? ['since'] : ['since', 'page']);
        if (on) expect(nextOf(empty).searchParams.get('since')).toBe(since);
        mock.advance(1_000);
        const [first] = mock.publish([ARTICLE]);
        const delivered = await after(mock, empty);
        expect(ids(delivered)).toEqual([thing(first!.contentId)]);
        // The clock still in the newest change's millisecond: only a page token tells what came.
        const end = await after(mock, delivered);
        expect(paramsOf(end)).toEqual(['since', 'page']);
        const [second] = mock.publish([ARTICLE]);
        const same = await after(mock, end);
        expect(ids(same)).toEqual([thing(second!.contentId)]);
        // The clock past it: since alone, the newest change's time, and the next change exactly.
        mock.advance(1_000);
        const last = await after(mock, same);
        expect(paramsOf(last)).toEqual(on ? ['since'] : ['since', 'page']);
        if (on) expect(nextOf(last).searchParams.get('since')).toBe(toTimestamp(second!.time));
        const [third] = mock.publish([ARTICLE]);
        expect(ids(await after(mock, last))).toEqual([thing(third!.contentId)]);
      }),
  },
  {
    behaviour: 'future-since-empty',
    does: 'answers a since in the future with an empty page whose next link repeats it',
    prove: async (mock, on) => {
      const future = iso(mock, 24 * 3_600_000);
      const answer = await ask(mock, `/content/notifications?since=${future}`);
      expect(answer.status).toBe(on ? 200 : 400);
      if (!on) return;
      const page = answer.json as FeedPage;
      expect(page.notifications).toEqual([]);
      expect(paramsOf(page)).toEqual(['since']);
      expect(nextOf(page).searchParams.get('since')).toBe(future);
    },
  },
];

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The image service, as its code and pages describe it. */
export const IMAGE_PROOFS: Proof[] = [
  {
    behaviour: 'image-errors-html',
    does: 'answers every error of the image service as a small HTML page',
    prove: async (mock, on) => {
      const missing = `${mock.imagesUrl}/images/raw/${encodeURIComponent('https://example.com/none.png')}?source=t`;
      const errors = [
        [image(mock, 'raw', 'format=bmp&source=t'), 400],
        [image(mock, 'debug', 'width=0&source=t'), 400],
        [missing, 404],
        [image(mock, 'data', 'source=t'), 400],
        [`${mock.imagesUrl}/images/none`, 404],
      ] as const;
      for (const [url, status] of errors) {
        const answer = await ask(mock, url, { key: null });
        expect([answer.status, answer.type]).toEqual([status, on ? HTML : JSON_TYPE]);
        if (on) expect(answer.text).toMatch(new RegExp(`^<!DOCTYPE html>.*<h1>${status} `));
      }
    },
  },
  {
    behaviour: 'image-source-required',
    does: 'refuses an image request without source with 400 on every route',
    prove: async (mock, on) => {
      for (const mode of ['raw', 'debug', 'metadata']) {
        expect((await ask(mock, image(mock, mode, 'width=20'), { key: null })).status).toBe(on ? 400 : 200);
        expect((await ask(mock, image(mock, mode, 'width=20&source='), { key: null })).status).toBe(
          on ? 400 : 200,
        );
        expect((await ask(mock, image(mock, mode, 'width=20&source=t'), { key: null })).status).toBe(200);
      }
    },
  },
  {
    behaviour: 'image-no-side-limit',
    does: 'serves a side above 65,000 within 25 megapixels, and still refuses more pixels',
    prove: async (mock, on) => {
      const wide = await ask(
        mock,
        image(mock, 'metadata', 'width=65001&height=10&fit=fill&format=png&source=t'),
        { key: null },
      );
      expect(wide.status).toBe(on ? 200 : 400);
      if (on) expect(wide.json).toMatchObject({ width: 65_001, height: 10 });
      const huge = await ask(
        mock,
        image(mock, 'raw', 'width=70000&height=1000&fit=fill&format=png&source=t'),
        { key: null },
      );
      expect(huge.status).toBe(400);
      // A side JPEG cannot hold: the service cannot make it, a 4xx and never a 5xx.
      const jpeg = await ask(mock, image(mock, 'raw', 'width=65536&height=10&fit=fill&format=jpg&source=t'), {
        key: null,
      });
      expect(jpeg.status).toBe(400);
    },
  },
];
