import { commandLine, usageError } from '../lib/cli.ts';
import { configOrExit, shownBound } from '../lib/config.ts';
import { loadContract } from '../lib/contract/index.ts';
import { diffReport, writeDiffReports } from '../lib/conformance-diff/render.ts';
import { runDiff } from '../lib/conformance-diff/run.ts';
import { contractIdentity, suiteCommit } from '../lib/report/run-meta.ts';
import { SUITE_MOCK } from '../rig/suite-mock.ts';
import { diffSides } from '../rig/diff-sides.ts';

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
const config = await configOrExit();
const startedAt = new Date().toISOString();
const contract = await loadContract();
const mockNow = values.now ?? MOCK_NOW;
const liveNow = values.now === undefined ? Date.now() : Date.parse(values.now);
const sides = await diffSides(config, mockNow, liveNow);

try {
  // Every secret of both sides, for one more pass over everything written or printed.
  const redactor = sides.live.redactor.with(sides.mock.redactor);
  console.log(
    redactor.text(
      `Conformance diff: the bundled mock (seed ${MOCK_SEED}, clock ${mockNow}) against ${config.baseUrl}; ` +
        `budget ${shownBound(config.requestBudget, ' requests')}, pace ${shownBound(config.rateLimit, ' per second')}`,
    ),
  );
  const outcome = await runDiff({ contract, mock: sides.mock, live: sides.live, limits: sides.limits });
  const report = diffReport(outcome, {
    startedAt,
    endedAt: new Date().toISOString(),
    mock: { seed: MOCK_SEED, now: new Date(mockNow).toISOString(), baseUrl: sides.server.url },
    live: {
      baseUrl: config.baseUrl!,
      ...(config.imageBaseUrl ? { imagesUrl: config.imageBaseUrl } : {}),
      now: new Date(liveNow).toISOString(),
      // JSON has no Infinity: a bound of none is null.
      budget: Number.isFinite(config.requestBudget) ? config.requestBudget : null,
      perSecond: Number.isFinite(config.rateLimit) ? config.rateLimit : null,
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
  await sides.close();
}
