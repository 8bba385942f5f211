import fc from 'fast-check';
import { atMostRuns } from '../../lib/arbitraries/index.ts';
import { loadContract, negotiationRules } from '../../lib/contract/index.ts';
import {
  caseRefusalRules,
  drawnParameters,
  EXPLORATION_ANNOTATION,
  judge,
  liveSafe,
  PROPERTY_RUNS,
  resolveCase,
  validRequests,
} from '../../lib/explore/index.ts';
import { says } from '../../lib/claims.ts';
import { expect, need, test } from '../fixtures.ts';
import { dataOf, sendCase } from './explore-data.ts';

/*
 * The exploration's second phase, as Schemathesis's fuzzing follows its coverage phase: each
 * operation of the main service is one property over valid requests drawn from its contract (every
 * optional parameter present or not, every value its schema allows in every form, the key in each
 * place), with the client's checks and the contract's expectation as the oracle. Seeded, shrunk,
 * and replayed from the printed seed and path (FC_SEED, FC_PATH). The image service's parameters
 * are drawn alone and combined, within their limits in the contract; a box whose output the source
 * decides (one side alone, past 25 megapixels) is held to no 5xx.
 */

const contract = await loadContract();
const operations = [...contract.operations.values()];

test.describe('exploration from the contract, as properties', () => {
  for (const operation of operations)
    test(
      `${operation.id}: any valid request drawn from the contract gets what the contract says`,
      {
        // Its own first rule, no 5xx, and the rules of a 406 to the Accept forms it draws.
        tag: [
          ...new Set([...operation.rules.slice(0, 1), 'HTTP-04', ...negotiationRules(contract, operation)]),
        ].map((r) => `@${r}`),
        annotation: { type: EXPLORATION_ANNOTATION },
      },
      async ({ api, target, fcParams, promises, config }) => {
        if (operation.document === 'images') need(target.imagesUrl, 'CLM_IMAGE_BASE_URL');
        test.skip(
          !promises.unsafeRequests && !liveSafe(operation),
          'a live run sends reads only: this operation is tried on the bundled mock',
        );
        // No page token is drawn: it goes only inside the next link that carried it (the case phase).
        const data = dataOf(target);
        const send = sendCase(api);
        const requests = validRequests(contract, operation.id, {
          now: target.now(),
          mode: target.kind,
          maxBodyBytes: config.maxBodyBytes,
        });
        let sent = 0;
        // The space: each enum member of each parameter, and each optional parameter present and absent.
        const space = new Set(
          drawnParameters(operation).flatMap((p) => [
            ...((p.schema?.enum as unknown[] | undefined) ?? []).map((v) => `${p.name}=${String(v)}`),
            ...(p.required ? [] : [`${p.name}:present`, `${p.name}:absent`]),
          ]),
        );
        const covered = new Set<string>();
        await fc.assert(
          fc.asyncProperty(requests, async (c) => {
            const resolved = resolveCase(c, data);
            // A value the target's data lacks: the case phase counts it not run; nothing to send here.
            fc.pre(!('reason' in resolved));
            if ('reason' in resolved) return;
            const response = await send(c.operation, resolved.options);
            sent++;
            const sentValues = { ...c.request.path, ...c.request.query, ...c.request.headers };
            for (const p of drawnParameters(operation)) {
              const value = sentValues[p.name];
              covered.add(`${p.name}:${value === undefined ? 'absent' : 'present'}`);
              if (typeof value === 'string') covered.add(`${p.name}=${value}`);
            }
            // A refusal that names a parameter (or of its key) is that one's rules' failure, else the case's.
            const verdict = judge(c, response.status);
            if (verdict === undefined) return;
            const named = caseRefusalRules(contract, c, response);
            expect(
              verdict,
              says(
                named.length ? named : c.rules.length ? c.rules : operation.rules.slice(0, 1),
                response.curl,
              ),
            ).toBeUndefined();
          }),
          atMostRuns(fcParams, promises.unmetered ? PROPERTY_RUNS.unmetered : PROPERTY_RUNS.metered),
        );
        const reached = [...space].filter((form) => covered.has(form)).length;
        test.info().annotations.push({
          type: 'note',
          description:
            `${sent} drawn requests sent; ${reached} of ${space.size} parameter forms covered ` +
            '(enum members, optional ones present and absent)',
        });
      },
    );
});
