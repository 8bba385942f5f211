import { defineConfig } from '@playwright/test';

export default defineConfig({
  forbidOnly: !!process.env.CI,
  // A flaky result against the mock is a defect, never retried away.
  retries: 0,
  fullyParallel: true,
  reporter: [
    ['list'],
    ['html', { outputFolder: 'reports/html', open: 'never' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    ['json', { outputFile: 'reports/results.json' }],
  ],
  outputDir: 'test-results',
  projects: [
    // The project's own tests: the contract, the mock, the client, the reporters.
    { name: 'self', testDir: 'tests/self' },
  ],
});
