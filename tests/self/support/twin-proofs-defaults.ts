import { expect } from '@playwright/test';
import {
  EXAMPLE_QUERY,
  isPodcast,
  PODCAST_SHARE,
  REFUSAL_BODIES,
  refusalOf,
  type Refusal,
} from '../../../mock/profiles/ft-gateway-content.ts';
import { SINCE_TEXTS } from '../../../mock/profiles/ft-gateway-default-feed.ts';
import type { Mock } from '../../../mock/server.ts';
import {
  HIDES_NEW_CHANGES,
  ask,
  feedAt,
  HOUR,
  ids,
  iso,
  nextOf,
  published,
  thing,
  viaHttps,
  walk,
  type FeedPage,
  type Hit,
  type Proof,
} from './twin.ts';

const FEED = '/content/notifications';
const paramsOf = (page: FeedPage) => [...nextOf(page).searchParams.keys()].sort();
const typesOf = (page: FeedPage) => new Map(page.notifications.map((n) => [n.id, n.type.split('/').pop()]));
const kindOf = (mock: Mock, id: string) => mock.state.content.kindOf(id.split('/').pop()!);

/** A live item the gateway refuses for `reason`, restricted (for the key that may not read it) or not. */
function refused(mock: Mock, reason: Refusal, restricted: boolean): string {
  return [...mock.state.content.values()].find(
    (c) => c.restricted === restricted && !c.deleted && refusalOf(mock.state, c.id) === reason,
  )!.id;
}

/** The refusal `reason` of the gateway, to the advertised key and to one that may not read restricted items. */
function refusalProof(reason: Refusal): Proof['prove'] {
  return async (mock, on) => {
    const { limitedKey, contentId } = mock.state.examples();
    const items = [
      refused(mock, reason, false),
      ...(reason === 'publication policy' ? [refused(mock, reason, true)] : []),
    ];
    for (const id of items)
      for (const path of ['content', 'enrichedcontent']) {
        const [advertised, limited] = [
          await ask(mock, `/${path}/${id}`),
          await ask(mock, `/${path}/${id}`, { key: limitedKey }),
        ];
        const body = REFUSAL_BODIES[reason];
        if (on)
          expect([advertised.status, advertised.json, limited.status, limited.json]).toEqual([
            403,
            body,
            403,
            body,
          ]);
        // The clean service serves either key, but a restricted item only to a key that may read it.
        else expect([advertised.status, limited.status]).toEqual([200, id === items[1] ? 403 : 200]);
      }
    // A key refused for itself keeps its own answer, and the advertised item is read.
    const refusedKey = await ask(mock, `/content/${items[0]}`, { key: 'no-such-key' });
    expect([refusedKey.status, refusedKey.json]).toEqual([403, { message: expect.any(String) }]);
    expect((await ask(mock, `/content/${contentId}`)).status).toBe(200);
  };
}

/** The feed an ordinary key gets by default. */
export const DEFAULT_FEED_PROOFS: Proof[] = [
  {
    behaviour: 'next-page-alone',
    does: 'links a page with changes by its page token alone, and serves a token without since',
    prove: async (mock, on) => {
      const since = iso(mock, -2 * 24 * HOUR);
      const page = await feedAt(mock, `${FEED}?since=${since}`);
      expect(page.notifications.length).toBeGreaterThan(0);
      expect(paramsOf(page)).toEqual(on ? ['page'] : ['page', 'since']);
      const token = nextOf(page).searchParams.get('page')!;
      const followed = await feedAt(mock, viaHttps(mock, nextOf(page).href));
      const alone = await ask(mock, `${FEED}?page=${token}`);
      expect(alone.status).toBe(on ? 200 : 400);
      if (on) expect((alone.json as FeedPage).notifications).toEqual(followed.notifications);
      // An empty page keeps its since: a token alone is a page with changes' link only.
      expect(paramsOf(await feedAt(mock, `${FEED}?since=${iso(mock, -1_000)}`))).toContain('since');
    },
  },
  {
    behaviour: 'articles-only-feed',
    offAlongside: HIDES_NEW_CHANGES,
    does: 'lists Article changes only, in full pages, unless type names other kinds',
    prove: (mock, on) =>
      published(mock, async () => {
        const since = iso(mock, -1);
        const burst = mock.publish(Array.from({ length: 450 }, () => ({ type: 'CREATE' as const })));
        const articles = burst.filter((c) => mock.state.content.kindOf(c.contentId) === 'Article');
        expect(articles.length).toBeGreaterThan(200);
        const pages = await walk(mock, since);
        expect(pages[0]!.notifications).toHaveLength(200);
        expect(new Set(pages.flatMap(ids))).toEqual(
          new Set((on ? articles : burst).map((c) => thing(c.contentId))),
        );
        // Asked by type, the kinds it names: live blogs only, or every kind.
        const blogs = await feedAt(mock, `${FEED}?since=${since}&type=LiveBlogPost`);
        const kinds = new Set(blogs.notifications.map((n) => kindOf(mock, n.id)));
        if (on) expect([...kinds]).toEqual(['LiveBlogPost']);
        else expect(kinds.size).toBeGreaterThan(1);
        const all = await feedAt(mock, `${FEED}?since=${since}&type=All`);
        expect(all.notifications.map((n) => n.id)).toEqual(
          burst.slice(0, 200).map((c) => thing(c.contentId)),
        );
      }),
  },
  {
    behaviour: 'creates-as-updates',
    offAlongside: HIDES_NEW_CHANGES,
    does: 'lists a creation as an UPDATE',
    prove: (mock, on) =>
      published(mock, async () => {
        const since = iso(mock, -1);
        const { contentId } = mock.state.examples();
        const other = [...mock.state.content.values()].find((c) => !c.deleted && c.id !== contentId)!;
        const [created, updated, deleted] = mock.publish([
          { type: 'CREATE', kind: 'Article' },
          { type: 'UPDATE', contentId },
          { type: 'DELETE', contentId: other.id },
        ]);
        const types = typesOf(await feedAt(mock, `${FEED}?since=${since}&type=All`));
        expect([created, updated, deleted].map((c) => types.get(thing(c!.contentId)))).toEqual([
          on ? 'UPDATE' : 'CREATE',
          'UPDATE',
          'DELETE',
        ]);
      }),
  },
  {
    behaviour: 'type-and-monitor-stripped',
    does: 'leaves type and monitor out of requestUrl, and every other part as requested',
    prove: async (mock, on) => {
      const since = iso(mock, -HOUR).replace('Z', '%2B00:00');
      const page = await feedAt(mock, `${FEED}?since=${since}&type=All&monitor=false`);
      const query = page.requestUrl.slice(page.requestUrl.indexOf('?'));
      expect(query).toBe(on ? `?since=${since}` : `?since=${since}&type=All&monitor=false`);
      const plain = await feedAt(mock, `${FEED}?since=${since}`);
      expect(plain.requestUrl).toBe(`${mock.url}${FEED}?since=${since}`);
    },
  },
  {
    behaviour: 'feed-ties-by-uuid',
    offAlongside: HIDES_NEW_CHANGES,
    does: 'lists the changes of one millisecond by ascending uuid once the clock has left it',
    prove: (mock, on) =>
      published(mock, async () => {
        const since = iso(mock, -1);
        const burst = mock.publish(Array.from({ length: 20 }, () => ({ type: 'CREATE' as const })));
        const listed = async () => ids(await feedAt(mock, `${FEED}?since=${since}&type=All`));
        const inOrder = burst.map((c) => thing(c.contentId));
        // While the clock stands in it, a change may still join the millisecond: as published.
        expect(await listed()).toEqual(inOrder);
        mock.advance(1);
        const sorted = [...inOrder].sort();
        expect(sorted).not.toEqual(inOrder);
        expect(await listed()).toEqual(on ? sorted : inOrder);
      }),
  },
  {
    behaviour: 'feed-400-texts',
    does: "refuses a missing, unparseable or too old since in the real feed's words",
    prove: async (mock, on) => {
      const refusals = [
        [FEED, SINCE_TEXTS.mandatory],
        [`${FEED}?since=yesterday`, SINCE_TEXTS.mandatory],
        [`${FEED}?since=${iso(mock, -100 * 24 * HOUR)}`, SINCE_TEXTS.window],
      ] as const;
      for (const [target, text] of refusals) {
        const answer = await ask(mock, target);
        expect(answer.status).toBe(400);
        expect((answer.json as { message: string }).message === text).toBe(on);
      }
      // A refusal of another cause keeps its words.
      const token = await ask(mock, `${FEED}?since=${iso(mock, -HOUR)}&page=garbled`);
      expect([token.status, (token.json as { message: string }).message]).toEqual([
        400,
        expect.stringMatching(/page/),
      ]);
    },
  },
];

/** Content and search, as an ordinary key gets them through the gateway. */
export const CONTENT_PROOFS: Proof[] = [
  {
    behaviour: 'content-policy-fields',
    does: 'answers content without accessLevel, with webUrl and canonicalWebUrl on www.ft.com',
    prove: async (mock, on) => {
      const { contentId } = mock.state.examples();
      const web = `https://www.ft.com/content/${contentId}`;
      for (const path of ['content', 'enrichedcontent', 'content/items/v1']) {
        const body = (await ask(mock, `/${path}/${contentId}`)).json as Record<string, unknown>;
        expect(body.webUrl).toBe(web);
        if (on) expect([body.canonicalWebUrl, body.accessLevel]).toEqual([web, undefined]);
        else expect([body.canonicalWebUrl, typeof body.accessLevel]).toEqual([undefined, 'string']);
      }
    },
  },
  {
    behaviour: 'content-403-error-body',
    does: 'refuses the items outside the publication policy to every key with {"error": "access denied"}',
    prove: refusalProof('publication policy'),
  },
  {
    behaviour: 'content-403-message-body',
    does: 'refuses the items that may not be syndicated to every key with {"message": "Access denied."}',
    prove: refusalProof('syndication'),
  },
  {
    behaviour: 'content-id-not-uuid-400',
    does: 'answers an item id that is not a UUID with 400 invalid UUID, where the contract says 404',
    prove: async (mock, on) => {
      const { contentId } = mock.state.examples();
      for (const path of ['content', 'enrichedcontent']) {
        const answer = await ask(mock, `/${path}/not-a-uuid`);
        if (on)
          expect([answer.status, answer.json]).toEqual([
            400,
            { message: 'invalid UUID: not-a-uuid, does not conform to RFC 4122' },
          ]);
        else expect(answer.status).toBe(404);
        // A UUID is looked up, in either case: unknown 404, known 200.
        expect((await ask(mock, `/${path}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
        expect((await ask(mock, `/${path}/${contentId.toUpperCase()}`)).status).toBe(200);
      }
    },
  },
  {
    behaviour: 'search-hit-without-apiurl',
    does: `answers about one search hit in ${1 / PODCAST_SHARE} as a podcast without apiUrl, the example search's first among them`,
    prove: async (mock, on) => {
      const search = async (queryString: string, maxResults: number) => {
        const body = { queryString, resultContext: { maxResults } };
        const answer = await ask(mock, '/content/search/v1', { method: 'POST', body });
        return (answer.json as { results: { results: Hit[] }[] }).results[0]!.results;
      };
      const [first] = await search(EXAMPLE_QUERY, 5);
      expect([first!.aspectSet === 'podcast', first!.apiUrl === undefined]).toEqual([on, on]);
      const podcasts = (await search('', 100)).filter((hit) => hit.apiUrl === undefined);
      for (const hit of podcasts) expect(hit.aspectSet).toBe('podcast');
      expect(podcasts.length).toBeLessThanOrEqual(on ? 5 : 0);
      // The rate over every item: one in about 100.
      const items = [...mock.state.content.keys()];
      const share = items.filter((id) => isPodcast(mock.state, id)).length / items.length;
      expect(share).toBeGreaterThan(PODCAST_SHARE / 2);
      expect(share).toBeLessThan(PODCAST_SHARE * 1.5);
    },
  },
];
