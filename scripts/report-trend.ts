import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { commandLine, usageError } from '../lib/cli.ts';
import { ConfigError, loadConfig } from '../lib/config.ts';
import { HISTORY_FILE, readHistory } from '../lib/report/history.ts';
import { trendHtml } from '../lib/report/trend.ts';

const USAGE = `Usage: npm run report:trend -- [--history FILE] [--out FILE] [--window N]

Writes a page of the runs in the history: the newest run's verdict and regressed or flaky rules,
charts of latency, requests and rule verdicts per run, each rule's verdict over time, and drift.
The page works offline: the charting library is inlined.

  --history FILE  the run history (default <reports>/${HISTORY_FILE}; CLM_REPORTS_DIR sets <reports>)
  --out FILE      the page to write (default <reports>/trend.html)
  --window N      runs the newest is compared with, as in conformance:regressions (default 3)
  -h, --help      this text`;

function fail(message: string): never {
  return usageError(USAGE, message);
}

const { values: args } = commandLine(USAGE, {
  history: { type: 'string' },
  out: { type: 'string' },
  window: { type: 'string' },
});
const window = args.window === undefined ? undefined : Number(args.window);
if (window !== undefined && !(Number.isInteger(window) && window >= 1))
  fail(`--window "${args.window}" is not a whole number of at least 1`);

/** The reports folder, read only where a default path needs it. */
function reportsDir(): string {
  try {
    return loadConfig().reportsDir;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    fail(`Configuration error: ${error.message}`);
  }
}
const historyFile = args.history ?? join(reportsDir(), HISTORY_FILE);
const out = args.out ?? join(reportsDir(), 'trend.html');
const history = readHistory(historyFile);
if (history.malformed > 0) console.warn(`${historyFile}: ${history.malformed} malformed line(s) skipped.`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, trendHtml(history, window === undefined ? {} : { window }));
console.log(
  history.length === 0
    ? `No runs yet in ${historyFile}; wrote an empty trend page: ${out}`
    : `Trend of ${history.length} run(s) from ${historyFile}: ${out}`,
);
