import { existsSync } from 'node:fs';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { configOrExit } from './lib/config.ts';
import { loadSuiteConfig } from './rig/faults.ts';

// A bad setting stops the run here, before any request. The mock knows its faults; the suite's own
// loader does not depend on it: rig checks them.
const config = await configOrExit(loadSuiteConfig);

// Workers load this file again: they must share the main process's seed.
process.env.FC_SEED ??= String(config.fcSeed);
const reports = config.reportsDir;
// Debian's Chromium where it is installed (`.ci/run` installs it); else Playwright's own browser.
const chromium = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
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
  // retried once by the client itself, and reported. Live, a test an outage stopped runs once more
  // at the end of the run (Playwright queues retries last); any other failure stands (tests/fixtures.ts).
  retries: live ? 1 : 0,
  fullyParallel: true,
  // Against the mock, every core: each worker has its own mock. Live, one: the key's allowance is shared.
  workers: live ? 1 : '100%',
  // Live, the run's deadline (CLM_RUN_TIMEOUT) bounds every test: waiting for the shared pace is no
  // failure of the service. The global timeout only backs the deadline up, after a grace period.
  // With no deadline (CLM_RUN_TIMEOUT=none), ten minutes a test: one that runs longer is stuck.
  // Against the mock, 90 s: the heaviest property (the feed's model, 100 scripts) takes seconds on a
  // quiet machine and over 20 on a loaded one, and its time limit is most of its test's; no verdict
  // may depend on how busy the machine is.
  timeout: live ? (Number.isFinite(config.runTimeout) ? config.runTimeout * 1000 : 600_000) : 90_000,
  ...(Number.isFinite(config.runTimeout) ? { globalTimeout: (config.runTimeout + 120) * 1000 } : {}),
  globalSetup: './lib/run/global-setup.ts',
  reporter,
  outputDir: 'test-results',
  projects: live
    ? [{ name: 'live', testDir: 'tests/conformance' }]
    : [
        // The project's own tests: the contract, the mock, the client, the reporters, the docs.
        {
          name: 'self',
          testDir: 'tests/self',
          use: {
            launchOptions: {
              executablePath: chromium,
              // No background traffic: the docs test proves the pages fetch nothing from outside.
              args: [
                '--no-sandbox',
                '--disable-gpu',
                '--disable-background-networking',
                '--disable-component-update',
                '--no-first-run',
                '--disable-sync',
              ],
            },
          },
        },
        // The conformance suite against the bundled mock, one per worker.
        { name: 'mock', testDir: 'tests/conformance' },
      ],
});
