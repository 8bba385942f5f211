import { expect } from '@playwright/test';
import { DEFAULT_OUTAGE, OUTAGE_BODIES } from '../../../mock/profiles/ft-gateway-outage.ts';
import type { Proof } from './twin.ts';
import { ask, feedAt, HOUR, iso, nextOf, searchHits, type FeedPage } from './twin.ts';

/** The gateway's own behaviours, in front of every service. */
export const GATEWAY_PROOFS: Proof[] = [
  {
    behaviour: 'gateway-outage',
    does:
      'restarts the backend once: 504 after a read timeout, then 503 to every request with a key, valid ' +
      'or not, for the outage, then answers again',
    prove: async (mock, on) => {
      const plan = mock.state.options.outage ?? DEFAULT_OUTAGE;
      const feed = `/content/notifications?since=${iso(mock, -HOUR)}`;
      const statuses: number[] = [];
      // Without a key the gateway refuses at once: no outage, and no request counted towards one.
      expect((await ask(mock, feed, { key: null, once: true })).status).toBe(403);
      for (let i = 0; i <= plan.after + 1; i++) statuses.push((await ask(mock, feed, { once: true })).status);
      if (!on) return expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.indexOf(504), 'the request in flight when it starts').toBe(plan.after);
      // Valid or malformed, every request with a key fails while it lasts, the retry included.
      const malformed = await ask(mock, '/content/notifications?since=yesterday', { once: true });
      expect([statuses.at(-1), malformed.status]).toEqual([503, 503]);
      expect(malformed.json).toEqual(OUTAGE_BODIES[503]);
      await new Promise((resolve) => setTimeout(resolve, plan.seconds * 1000));
      expect((await ask(mock, feed, { once: true })).status).toBe(200);
      expect((await ask(mock, '/content/notifications?since=yesterday', { once: true })).status).toBe(400);
    },
  },
  {
    behaviour: 'next-trailing-slash',
    does: "ends the next link's path in a slash and serves a path with one trailing slash as without it",
    prove: async (mock, on) => {
      const since = iso(mock, -2 * 24 * HOUR);
      const page = await feedAt(mock, `/content/notifications?since=${since}`);
      expect(nextOf(page).pathname).toBe(on ? '/content/notifications/' : '/content/notifications');
      const slashed = await ask(mock, `/content/notifications/?since=${since}`);
      const licence = await ask(mock, `/licence/${mock.state.examples().licenceId}/`);
      expect([slashed.status, licence.status]).toEqual(on ? [200, 200] : [404, 404]);
      if (on) expect((slashed.json as FeedPage).notifications).toEqual(page.notifications);
      expect((await ask(mock, '/content/notifications//?since=' + since)).status).toBe(404);
    },
  },
  {
    behaviour: 'http-links',
    does: "writes every link of a body as plain http:// on the mock's plain-HTTP origin",
    prove: async (mock, on) => {
      const { contentId, pageId } = mock.state.examples();
      const page = await feedAt(mock, `/content/notifications?since=${iso(mock, -2 * 24 * HOUR)}`);
      const content = (await ask(mock, `/content/${contentId}`)).json as { apiUrl: string };
      const site = (await ask(mock, `/site/v1/pages/${pageId}`)).json as {
        page: { apiUrl: string; links: { href: string }[] };
      };
      const hits = (await searchHits(mock)).flatMap((hit) => (hit.apiUrl ? [hit.apiUrl] : []));
      const links = [
        ...page.links.map((l) => l.href),
        ...page.notifications.map((n) => n.apiUrl!),
        content.apiUrl,
        site.page.apiUrl,
        ...site.page.links.map((l) => l.href),
        ...hits,
      ];
      expect(hits.length).toBeGreaterThan(0);
      for (const link of links) expect(link).toMatch(new RegExp(`^${on ? mock.httpUrl : mock.url}/`));
    },
  },
  {
    behaviour: 'ordinary-key-fields',
    does: 'shows the key it advertises notifications of type, id and apiUrl only, and content without internal fields',
    prove: async (mock, on) => {
      const page = await feedAt(mock, `/content/notifications?since=${iso(mock, -2 * 24 * HOUR)}`);
      const fields = new Set(page.notifications.flatMap((n) => Object.keys(n)));
      if (on) expect([...fields].sort()).toEqual(['apiUrl', 'id', 'type']);
      else expect([...fields]).toEqual(expect.arrayContaining(['lastModified', 'publishReference']));
      const content = (await ask(mock, `/content/${mock.state.examples().contentId}`)).json as object;
      for (const field of ['publishReference', 'lastModified', 'canBeDistributed', 'openingXML'])
        expect(content).not.toHaveProperty(field);
    },
  },
];
