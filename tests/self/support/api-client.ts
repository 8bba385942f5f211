import { ApiClient } from '../../../lib/client/client.ts';
import { emptyObservations, type Observations } from '../../../lib/client/observations.ts';
import { Redactor, type Secret } from '../../../lib/client/redact.ts';
import type { ClientLimits, Target } from '../../../lib/client/types.ts';
import { loadContract } from '../../../lib/contract/index.ts';
import { Ledger } from '../../../lib/run/ledger.ts';
import { localLedger } from '../../../lib/run/ledger-server.ts';

const contract = await loadContract();

/** Thrown where a test of the suite would end as not run: the reason, for the self-test to read. */
export class NotRun extends Error {}

/** The suite's one client on its own, unmetered, outside a conformance test: a stop throws `NotRun`. */
export function selfClient(
  target: Target,
  secrets: Secret[],
  observations: Observations = emptyObservations(),
  limits: Partial<ClientLimits> = {},
): ApiClient {
  return new ApiClient({
    contract,
    target,
    ledger: localLedger(new Ledger({ perSecond: Infinity, budget: Infinity })),
    limits: { requestTimeoutMs: 5_000, maxBodyBytes: 1 << 24, maxRetryAfter: 5, outageWait: 3, ...limits },
    redactor: new Redactor(secrets),
    observations,
    stop: (reason) => {
      throw new NotRun(reason);
    },
  });
}
