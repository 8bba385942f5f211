import { expect } from '@playwright/test';
import { outageFor, outageId } from '../../../mock/profiles/ft-gateway.ts';
import type { Mock } from '../../../mock/server.ts';
import type { Proof } from './twin.ts';
import { ask, feedAt, HOUR, iso, nextOf, searchHits, type FeedPage } from './twin.ts';

/** The first requests of a feed walk back from now that the outage strikes, by its answer. */
function struckTargets(mock: Mock): Record<503 | 504, string> {
  const found: Partial<Record<503 | 504, string>> = {};
  for (let minutes = 1; !(found[503] && found[504]); minutes++) {
    const target = `/content/notifications?since=${iso(mock, -minutes * 60_000)}`;
    const [path = '', rawQuery = ''] = target.split('?');
    const status = outageFor(
      mock.state.options.seed,
      outageId({ method: 'GET', path, rawQuery, query: new URLSearchParams(rawQuery) }),
    );
    if (status) found[status] ??= target;
  }
  return found as Record<503 | 504, string>;
}

/** The gateway's own behaviours, in front of every service. */
export const GATEWAY_PROOFS: Proof[] = [
  {
    behaviour: 'gateway-outage',
    does: 'fails a few keyed requests once with 503 or 504, and the same request sent again passes',
    prove: async (mock, on) => {
      const struck = struckTargets(mock);
      // Without a key the gateway refuses at once: no outage, whatever the request.
      expect((await ask(mock, struck[503], { key: null, once: true })).status).toBe(403);
      const first = await ask(mock, struck[503], { once: true });
      expect(first.status).toBe(on ? 503 : 200);
      if (on) expect(first.json).toEqual({ message: 'server error' });
      expect((await ask(mock, struck[503], { once: true })).status).toBe(200);
      // The key is no part of what picks a request: in the query, the same request is struck.
      const key = mock.state.examples().key;
      const timeout = await ask(mock, `${struck[504]}&apiKey=${key}`, { key: null, once: true });
      expect(timeout.status).toBe(on ? 504 : 200);
      expect((await ask(mock, struck[504], { once: true })).status).toBe(200);
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
