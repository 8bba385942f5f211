import type { ClientLimits } from '../lib/client/client.ts';
import { Redactor } from '../lib/client/redact.ts';
import type { Config } from '../lib/config.ts';
import type { Side } from '../lib/conformance-diff/run.ts';
import { Ledger } from '../lib/run/ledger.ts';
import { localLedger } from '../lib/run/ledger-server.ts';
import { createMock, type Mock } from '../mock/server.ts';
import { SUITE_MOCK } from './suite-mock.ts';
import { clientLimits, demoMockTarget, liveTarget, serviceTarget } from './targets.ts';

/** The two sides of `conformance:diff`: the bundled mock in process, and the configured service. */
export interface DiffSides {
  mock: Side;
  live: Side;
  /** The in-process mock, for the report's header; closed by `close`. */
  server: Mock;
  limits: ClientLimits;
  close(): Promise<void>;
}

/**
 * The mock side seeded as the suite's mocks are and clocked at `mockNow`, reached with its demo key
 * and unmetered; the service side as the live target of a run, within the run's budget and pace.
 */
export async function diffSides(config: Config, mockNow: string, liveNow: number): Promise<DiffSides> {
  const server = await createMock({ seed: SUITE_MOCK.seed, now: mockNow });
  const { secrets: mockSecrets, ...mockTarget } = demoMockTarget(server);
  const { secrets: liveSecrets, ...live } = serviceTarget(config);
  const deadline = Number.isFinite(config.runTimeout) ? Date.now() + config.runTimeout * 1000 : undefined;
  return {
    server,
    mock: {
      target: mockTarget,
      data: { ...server.state.examples(), imagesUrl: server.imagesUrl },
      now: server.state.clock.now(),
      ledger: localLedger(new Ledger({ perSecond: Infinity, budget: Infinity })),
      redactor: new Redactor(mockSecrets),
    },
    live: {
      target: live,
      data: { ...liveTarget(config).data, imagesUrl: config.imageBaseUrl },
      now: liveNow,
      ledger: localLedger(
        new Ledger({ perSecond: config.rateLimit, budget: config.requestBudget, deadline }),
      ),
      redactor: new Redactor(liveSecrets),
    },
    limits: clientLimits(config),
    close: () => server.close(),
  };
}
