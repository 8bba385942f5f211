import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { files, readableTexts, runPlaywright } from './support/nested-run.ts';

const CANARY_KEY = 'canary-key-7f3a9c21e8';
const CANARY_TOKEN = 'canarytoken4b8e2d91f0aa';

function run(args: string[], dir: string, faults = '') {
  return runPlaywright('mock', {
    args,
    dir,
    env: {
      CLM_API_KEY: CANARY_KEY,
      CLM_USER_TOKEN: CANARY_TOKEN,
      CLM_USER_ID: '00000000-0000-4000-8000-000000000000',
      CLM_BLOB: '1',
      MOCK_FAULTS: faults,
      FC_RUNS: '20',
    },
  });
}

test.describe('secrets in reports @AUTH-07', () => {
  test.setTimeout(240_000);

  test('no key or token reaches any report, log or attachment, passing or failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-canary-'));
    const clean = await run([], join(dir, 'clean'));
    expect(clean.status, clean.stdout.slice(-2000)).toBe(0);
    // A run with failures writes the failure attachments (redacted exchanges, curl lines) too.
    const failing = await run(
      ['-g', '@PAGE-02|@AUTH-02|@PROF-01'],
      join(dir, 'failing'),
      'page-request-url-with-key,key-echoed-in-header',
    );
    expect(failing.status, 'the faults make tests fail').not.toBe(0);
    const written = files(dir);
    expect(written.some((f) => f.endsWith('index.html'))).toBe(true);
    expect(written.some((f) => f.endsWith('.zip'))).toBe(true);
    expect(written.some((f) => f.endsWith('.txt') || f.endsWith('.md'))).toBe(true);
    for (const path of written)
      for (const text of readableTexts(path)) {
        expect(text.includes(CANARY_KEY), `the key in ${path}`).toBe(false);
        expect(text.includes(CANARY_TOKEN), `the token in ${path}`).toBe(false);
      }
    for (const output of [clean.stdout, clean.stderr, failing.stdout, failing.stderr]) {
      expect(output.includes(CANARY_KEY)).toBe(false);
      expect(output.includes(CANARY_TOKEN)).toBe(false);
    }
    expect(failing.stdout).toContain('$CLM_API_KEY');
  });
});
