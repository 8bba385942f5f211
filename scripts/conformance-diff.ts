import { commandLine, usageError } from '../lib/cli.ts';
import { Redactor } from '../lib/client/redact.ts';
import { configOrExit } from '../lib/config.ts';
import { loadContract } from '../lib/contract/index.ts';
import { diffReport, writeDiffReports } from '../lib/conformance-diff/render.ts';
import { runDiff, type Side } from '../lib/conformance-diff/run.ts';
import { contractIdentity, suiteCommit } from '../lib/report/run-meta.ts';
import { Ledger } from '../lib/run/ledger.ts';
import { localLedger } from '../lib/run/ledger-server.ts';
import { createMock } from '../mock/server.ts';
import { SUITE_MOCK } from '../mock/live-env.ts';
import { demoMockTarget, serviceTarget } from '../rig/targets.ts';

/** The in-process mock's clock by default: the suite's, so its data are the same every run. */
const MOCK_NOW = SUITE_MOCK.now;
const MOCK_SEED = SUITE_MOCK.seed;

const USAGE = `Usage: npm run conformance:diff -- [options]

  Sends the same safe requests (every GET and the search POST: a success with each side's own
  data, an unknown identifier, no key, a wrong key; for the feed \`since\` missing and in the
  future, and a walk back in time to a full page, at most 15 pages a side) to the bundled mock,
  started in process, and to the configured service (CLM_BASE_URL, CLM_API_KEY,
  CLM_IMAGE_BASE_URL and the data ids, from the environment, .env or CLM_ENV_FILE), within the
  run's budget and pace (CLM_REQUEST_BUDGET, CLM_RATE_LIMIT). Compares each pair by status,
  Content-Type, the headers the contract names and the shape of the body, never values (the
  feed's pages also by size against the contract's page limit and by their next links' shape), and
  classes each difference: the mock is wrong, the service breaks the contract, or the contract is
  silent. Writes diff.md, diff.json and diff.html to the reports folder (CLM_REPORTS_DIR, default
  reports).

  --now TIMESTAMP   the clock of both sides: the mock starts at it and the service's \`since\`
                    values count from it (for a service whose clock is fixed, such as
                    npm run mock -- --now TIMESTAMP); default: the mock at ${MOCK_NOW},
                    the service at this machine's clock
  -h, --help        this text

  Exit code: 0 when no difference, 1 when at least one or when the run stopped before the end
  (budget, deadline, no answer: the verdict is incomplete), 2 on a configuration error.`;

const { values } = commandLine(USAGE, { now: { type: 'string' } });
if (values.now !== undefined && Number.isNaN(Date.parse(values.now)))
  usageError(USAGE, `conformance:diff: --now must be a timestamp, not "${values.now}"`);

// The configured service is the live side whatever CLM_TARGET says: the live defaults apply.
process.env.CLM_TARGET = 'live';
const config = configOrExit();
const startedAt = new Date().toISOString();
const contract = await loadContract();
const mockNow = values.now ?? MOCK_NOW;
const mock = await createMock({ seed: MOCK_SEED, now: mockNow });

try {
  const examples = mock.state.examples();
  const { secrets: mockSecrets, ...mockTarget } = demoMockTarget(mock);
  const { secrets: liveSecrets, ...liveTarget } = serviceTarget(config);
  const mockSide: Side = {
    target: mockTarget,
    data: { ...examples, imagesUrl: mock.imagesUrl },
    now: mock.state.clock.now(),
    ledger: localLedger(new Ledger({ perSecond: Infinity, budget: Infinity })),
    redactor: new Redactor(mockSecrets),
  };
  const liveNow = values.now === undefined ? Date.now() : Date.parse(values.now);
  const deadline = Number.isFinite(config.runTimeout) ? Date.now() + config.runTimeout * 1000 : undefined;
  const liveSide: Side = {
    target: liveTarget,
    data: {
      licenceId: config.licenceId,
      contentId: config.contentId,
      pageId: config.pageId,
      userId: config.userId,
      token: config.userToken,
      imageUri: config.imageUri,
      imagesUrl: config.imageBaseUrl,
    },
    now: liveNow,
    ledger: localLedger(new Ledger({ perSecond: config.rateLimit, budget: config.requestBudget, deadline })),
    redactor: new Redactor(liveSecrets),
  };
  // Every secret of both sides, for one more pass over everything written or printed.
  const redactor = liveSide.redactor.with(mockSecrets);
  console.log(
    redactor.text(
      `Conformance diff: the bundled mock (seed ${MOCK_SEED}, clock ${mockNow}) against ${config.baseUrl}; ` +
        `budget ${config.requestBudget} requests, at most ${config.rateLimit} per second`,
    ),
  );
  const outcome = await runDiff({
    contract,
    mock: mockSide,
    live: liveSide,
    limits: {
      requestTimeoutMs: config.requestTimeout * 1000,
      maxBodyBytes: config.maxBodyBytes,
      maxRetryAfter: config.maxRetryAfter,
    },
  });
  const report = diffReport(outcome, {
    startedAt,
    endedAt: new Date().toISOString(),
    mock: { seed: MOCK_SEED, now: new Date(mockNow).toISOString(), baseUrl: mock.url },
    live: {
      baseUrl: config.baseUrl!,
      ...(config.imageBaseUrl ? { imagesUrl: config.imageBaseUrl } : {}),
      now: new Date(liveNow).toISOString(),
      budget: config.requestBudget,
      perSecond: config.rateLimit,
    },
    contract: contractIdentity(contract),
    suiteCommit: suiteCommit(),
  });
  const written = writeDiffReports(config.reportsDir, report, redactor);
  console.log(redactor.text(report.summary));
  console.log(`Reports: ${written.join(', ')}`);
  // A run cut short has not shown the two sides alike: never a green light.
  process.exitCode = report.verdict === 'same' ? 0 : 1;
} finally {
  await mock.close();
}
