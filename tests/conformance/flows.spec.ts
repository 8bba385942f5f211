import { loadContract } from '../../lib/contract/index.ts';
import { endOf, flowsOf, followFlow, inconsistencies } from '../../lib/links/flows.ts';
import { says } from '../../lib/claims.ts';
import { expect, test } from '../fixtures.ts';
import { skipIfGone } from './gone.ts';
import { LINK_SOURCES, noteUnfollowable } from './link-sources.ts';

/** Chains per flow: a few, to meet a deleted or forbidden item on the mock, within a live budget. */
const CHAINS = { unmetered: 6, metered: 2 };

/** The rules a flow checks, by its first operation, besides every answer's own checks (HTTP-04). */
const RULES: Record<string, string[]> = {
  listNotifications: ['CONT-03', 'NOTIF-13', 'CONT-01', 'CONT-02'],
  searchContent: ['CONT-04', 'CONT-01', 'CONT-02'],
  listPagesV1: ['PAGE-03', 'DEPR-01'],
};

/** The rule an answer for another item than the one asked breaks, by the operation that gave it. */
const ANSWER_RULES: Record<string, string> = {
  getContent: 'CONT-01',
  getEnrichedContent: 'CONT-02',
  getPageMainContent: 'PAGE-03',
};

// The tests are made from the contract's flows, so it is read before they are declared.
const contract = await loadContract();

test.describe("operation flows of the contract's links, followed to the end", () => {
  for (const flow of flowsOf(contract)) {
    const tags = [...(RULES[flow.operations[0]!] ?? []), 'HTTP-04'].map((r) => ` @${r}`).join('');
    test(`${flow.id}: each step answers as the contract says, and the chain ends on the same thing or is skipped (403, 404, 410)${tags}`, async ({
      api,
      target,
      observations,
      promises,
    }) => {
      const options = LINK_SOURCES[flow.operations[0]!]?.(target);
      test.skip(!options, `no data to ask ${flow.operations[0]} with`);
      const source = await api.call(flow.operations[0]!, options);
      // A retired v1 endpoint is gone, not broken (DEPR-01).
      skipIfGone(api, source);
      expect(source.status, flow.operations[0]).toBe(Number(flow.links[0]!.status));
      const chains = await followFlow(contract, flow, source.json, {
        // Every answer goes through the client, which checks it against the contract.
        call: async (operationId, call) => {
          const answer = await api.call(operationId, call);
          skipIfGone(api, answer);
          return answer;
        },
        limit: promises.unmetered ? CHAINS.unmetered : CHAINS.metered,
        observations,
        skipped: noteUnfollowable,
      });
      const shown = (chain: { operation: string; status: number }[]) =>
        chain.map((s) => `${s.operation} ${s.status}`).join(' → ');
      // A broken chain breaks the rule of its first link; an answer for another item, the rule of
      // the operation that gave it.
      const linkRule = RULES[flow.operations[0]!]?.[0];
      const answerRule = ANSWER_RULES[flow.operations.at(-1)!] ?? [];
      for (const chain of chains) {
        // The item a notification or a hit names exists, or is skipped as NOTIF-13 says.
        const ended = `how ${shown(chain)} ended`;
        expect(endOf(flow, chain), linkRule ? says(linkRule, ended) : ended).not.toBe('broken');
        if (endOf(flow, chain) === 'complete')
          expect(inconsistencies(chain), says(answerRule, `what ${shown(chain)} says`)).toEqual([]);
      }
      const complete = chains.filter((chain) => endOf(flow, chain) === 'complete');
      // The mock's data has a readable item, a page with main content and a hit in every list.
      if (promises.controlsData)
        expect(complete.length, `chains that reached ${flow.operations.at(-1)}`).toBeGreaterThan(0);
      test.info().annotations.push({
        type: 'flow',
        description: `${complete.length} of ${chains.length} chain(s) reached the end`,
      });
    });
  }
});
