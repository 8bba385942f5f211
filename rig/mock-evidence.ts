import { ApiCheckError, ApiClient } from '../lib/client/client.ts';
import { emptyObservations } from '../lib/client/observations.ts';
import { Redactor } from '../lib/client/redact.ts';
import { diffRequests } from '../lib/conformance-diff/requests.ts';
import { loadContract } from '../lib/contract/index.ts';
import type { EvidenceEntry } from '../lib/evidence/index.ts';
import { Ledger } from '../lib/run/ledger.ts';
import { localLedger } from '../lib/run/ledger-server.ts';
import { SUITE_MOCK } from './suite-mock.ts';
import { createMock } from '../mock/server.ts';
import { demoMockTarget } from './targets.ts';

/**
 * What the bundled mock serves, as evidence for the contract gate: the mock started in process (the
 * suite's seed and clock), asked the safe requests of `conformance:diff` (a success with its own
 * data, an unknown identifier, no key, a wrong key, the feed's `since` missing and in the future)
 * through the one client, which scrubs each body as a live run's. Always at hand, on a fresh clone.
 */
export async function mockEvidence(): Promise<EvidenceEntry[]> {
  const contract = await loadContract();
  const mock = await createMock({ ...SUITE_MOCK });
  try {
    const { secrets, ...target } = demoMockTarget(mock);
    const observations = { ...emptyObservations(), evidence: [] as EvidenceEntry[] };
    const client = new ApiClient({
      contract,
      target,
      ledger: localLedger(new Ledger({ perSecond: Infinity, budget: Infinity })),
      limits: { requestTimeoutMs: 30_000, maxBodyBytes: 16 * 1024 * 1024, maxRetryAfter: 0, outageWait: 0 },
      redactor: new Redactor(secrets),
      observations,
      stop: (reason) => {
        throw new Error(`the mock stopped answering: ${reason}`);
      },
    });
    const data = { ...mock.state.examples(), imagesUrl: mock.imagesUrl } as Record<
      string,
      string | undefined
    >;
    const now = mock.state.clock.now();
    for (const request of diffRequests(contract)) {
      if (request.needs.some((need) => data[need] === undefined)) continue;
      try {
        await client.call(request.operation, request.options({ data, now }));
      } catch (error) {
        // The answer was kept before the checks: a failed check does not take it back.
        if (!(error instanceof ApiCheckError)) throw error;
      }
    }
    return observations.evidence;
  } finally {
    await mock.close();
  }
}
