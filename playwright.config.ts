import { defineConfig, type ReporterDescription } from '@playwright/test';
import { ConfigError, loadConfig } from './lib/config.ts';

/** A bad setting stops the run here, before any request, with the variable named. */
function configOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}\nSee .env.example for every variable.`);
    process.exit(2);
  }
}

const config = configOrExit();
// Workers load this file again: they must share the main process's seed.
process.env.FC_SEED ??= String(config.fcSeed);
const reports = config.reportsDir;
const live = config.target === 'live';

const reporter: ReporterDescription[] = [
  [process.env.CI ? 'dot' : 'list'],
  ['html', { outputFolder: `${reports}/html`, open: 'never' }],
  ['junit', { outputFile: `${reports}/junit.xml` }],
  ['json', { outputFile: `${reports}/results.json` }],
  ['./lib/report/conformance-reporter.ts', { outputDir: reports }],
];
if (process.env.CLM_BLOB) reporter.push(['blob', { outputDir: `${reports}/blob` }]);

export default defineConfig({
  forbidOnly: !!process.env.CI,
  // A flaky result against the mock is a defect, never retried away; live network failures are
  // retried once by the client itself, and reported.
  retries: 0,
  fullyParallel: true,
  timeout: live ? 120_000 : 30_000,
  reporter,
  outputDir: 'test-results',
  projects: live
    ? [{ name: 'live', testDir: 'tests/conformance' }]
    : [
        // The project's own tests: the contract, the mock, the client, the reporters.
        { name: 'self', testDir: 'tests/self' },
        // The conformance suite against the bundled mock, one per worker.
        { name: 'mock', testDir: 'tests/conformance' },
      ],
});
