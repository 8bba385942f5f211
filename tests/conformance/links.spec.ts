import { loadContract } from '../../lib/contract/index.ts';
import { follow, linksOf, unfollowable } from '../../lib/links/follow.ts';
import { requestOf } from '../../lib/links/flows.ts';
import { expect, test } from '../fixtures.ts';
import { skipIfGone } from './gone.ts';
import { LINK_SOURCES, noteUnfollowable } from './link-sources.ts';

/** Links are followed for this many elements of a list: enough to meet a deleted item, within budget. */
const PER_LINK = { unmetered: 8, metered: 2 };

/** The rule each link checks besides "never a 5xx" (HTTP-04). */
const RULES: Record<string, string> = {
  content: 'CONT-03',
  enrichedContent: 'CONT-02',
  fullVersion: 'CONT-04',
  page: 'DEPR-01',
  mainContent: 'DEPR-01',
};

/**
 * The links whose rule states the followed request's status itself (CONT-03: every notification's
 * apiUrl can be fetched; DEPR-01: a v1 page conforms or is gone): a 5xx is that rule's as well as
 * HTTP-04's.
 */
const DECIDING = new Set(['content', 'page', 'mainContent']);

// The tests are made from the contract's links, so it is read before they are declared.
const contract = await loadContract();

test.describe('links of the contract, followed from real answers', () => {
  for (const link of linksOf(contract)) {
    const rules = [RULES[link.name], 'HTTP-04']
      .filter(Boolean)
      .map((r) => ` @${r}`)
      .join('');
    test(`${link.from} ${link.status} → ${link.name} (${link.to}) answers as the contract says, never a 5xx${rules}`, async ({
      api,
      target,
      promises,
    }) => {
      const options = LINK_SOURCES[link.from]?.(target);
      test.skip(!options, `no data to ask ${link.from} with`);
      const source = await api.call(link.from, options);
      // A retired v1 endpoint is gone, not broken (DEPR-01).
      skipIfGone(api, source);
      expect(source.status, link.from).toBe(Number(link.status));
      const limit = promises.unmetered ? PER_LINK.unmetered : PER_LINK.metered;
      const requests = follow(link, source.json, limit);
      for (const note of unfollowable(link, source.json, limit)) noteUnfollowable(`${link.from} ${note}`);
      if (promises.controlsData) expect(requests.length, 'requests the link leads to').toBeGreaterThan(0);
      for (const parameters of requests) {
        // The client checks every answer: a documented status, a body valid for it, never a 5xx.
        const answer = await api.call(link.to, {
          ...requestOf(contract, link, parameters),
          decides: DECIDING.has(link.name) ? [RULES[link.name]!] : [],
        });
        expect(answer.status, `${link.to} ${JSON.stringify(parameters)}`).toBeLessThan(500);
        expect(
          contract.response(link.to, answer.status),
          `status ${answer.status} is documented`,
        ).toBeTruthy();
      }
    });
  }
});
