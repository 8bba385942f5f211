import { loadConfig } from '../../lib/config.ts';
import { loadContract } from '../../lib/contract/index.ts';
import {
  caseBudget,
  EXPLORATION_ANNOTATION,
  EXPLORE_ATTACHMENT,
  exploredRules,
  exploreOperation,
  failuresOf,
  caseRefusalRules,
  perOperationLimit,
  runCases,
  selectCases,
  summariseOutcomes,
  type CaseOutcome,
} from '../../lib/explore/index.ts';
import { expect, need, test } from '../fixtures.ts';
import { dataOf, feedNextLink, sendCase } from './explore-data.ts';
import { goneReason } from './gone.ts';

const config = loadConfig();
const contract = await loadContract();
const operations = [...contract.operations.values()];
/**
 * Live, at most this many cases per operation, in budget order: with the properties and the feed's
 * next link, the exploration's share of the run's budget (EXPLORATION_SHARE).
 */
/** Each operation's cases as the run is collected: the clock does not change their count or rules. */
const collected = new Map(
  operations.map((op) => [op.id, exploreOperation(contract, op.id, { now: 0, mode: config.target })]),
);
const perOperation = perOperationLimit(
  operations.map((op) => collected.get(op.id)!.length),
  caseBudget(config.requestBudget, operations),
);

test.describe('exploration from the contract', () => {
  for (const operation of operations) {
    // The rules a case exercises do not depend on the clock: they are known before the run.
    const rules = exploredRules(collected.get(operation.id)!);
    // Tags, not words of the title: the reports tie the test to its rules by its tags, while the
    // mutation run pairs a fault with the tests whose title names its rule and repeats the whole run
    // as often as the most-paired test needs; titled with its 10 to 25 rules, an exploration test
    // would triple that run. It meets a fault once its rule's own tests miss it, as a test that
    // reaches the rule's operation.
    const tag = rules.map((r) => `@${r}`);
    test(
      `${operation.id}: each parameter valid and invalid in turn, from the contract alone`,
      { tag, annotation: { type: EXPLORATION_ANNOTATION } },
      async ({ api, target, promises }, testInfo) => {
        if (operation.document === 'images') need(target.imagesUrl, 'CLM_IMAGE_BASE_URL');
        const cases = exploreOperation(contract, operation.id, {
          now: target.now(),
          mode: target.kind,
          seed: config.fcSeed,
        });
        // Where unsafe requests may not go, reads only; at most this operation's share of the budget.
        const selection = selectCases(operation, cases, { live: !promises.unsafeRequests, perOperation });
        const outcomes: CaseOutcome[] = [];
        // A case of no rule of its own is the operation's first.
        const fallback = operation.rules.slice(0, 1);
        let gone: number | undefined;
        try {
          const feed = operation.id === 'listNotifications' ? await feedNextLink(api, target) : {};
          gone = await runCases(
            selection,
            { ...dataOf(target), ...feed },
            sendCase(api),
            outcomes,
            (response) => api.retired(response),
            (c, response) => caseRefusalRules(contract, c, response),
            fallback,
          );
        } finally {
          // A run that stopped (budget, deadline) leaves the cases it never reached not run.
          const reached = new Set(outcomes.map((o) => o.case.id));
          for (const c of cases)
            if (!reached.has(c.id)) outcomes.push({ case: c, ran: false, reason: 'the run stopped first' });
          await testInfo.attach(EXPLORE_ATTACHMENT, {
            body: JSON.stringify(summariseOutcomes(operation.id, rules, outcomes)),
            contentType: 'application/json',
          });
        }
        test.skip(gone !== undefined, goneReason({ operation: operation.id, gone }));
        const failures = failuresOf(outcomes, fallback);
        const ran = outcomes.filter((o) => o.ran).length;
        // Each failure on a line of its own, opening with its rules: the attribution reads them there.
        const heading = `${failures.length} of ${ran} cases got what the contract does not allow`;
        expect(failures, [heading, ...failures].join('\n')).toEqual([]);
      },
    );
  }
});
