import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

const CANARY_KEY = 'canary-key-7f3a9c21e8';
const CANARY_TOKEN = 'canarytoken4b8e2d91f0aa';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The text of every entry of a zip (Playwright's HTML report embeds one, base64, in its page). */
function zipTexts(zip: Buffer): string[] {
  const end = zip.lastIndexOf('PK\x05\x06');
  if (end === -1) return [];
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    texts.push((method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return texts;
}

function readable(path: string): string[] {
  const raw = readFileSync(path);
  const texts = [raw.toString('utf8')];
  const embedded = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(texts[0]!);
  if (embedded) texts.push(...zipTexts(Buffer.from(embedded[1]!, 'base64')));
  if (raw.subarray(0, 4).toString('latin1') === 'PK\x03\x04') texts.push(...zipTexts(raw));
  return texts;
}

function run(args: string[], dir: string, faults = '') {
  return spawnSync(
    'npx',
    ['playwright', 'test', '--project=mock', `--output=${join(dir, 'test-results')}`, ...args],
    {
      env: {
        ...process.env,
        CLM_API_KEY: CANARY_KEY,
        CLM_USER_TOKEN: CANARY_TOKEN,
        CLM_USER_ID: '00000000-0000-4000-8000-000000000000',
        CLM_REPORTS_DIR: join(dir, 'reports'),
        CLM_BLOB: '1',
        MOCK_FAULTS: faults,
        FC_RUNS: '20',
      },
      encoding: 'utf8',
    },
  );
}

test.describe('secrets in reports @AUTH-07', () => {
  test.setTimeout(240_000);

  test('no key or token reaches any report, log or attachment, passing or failing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-canary-'));
    const clean = run([], join(dir, 'clean'));
    expect(clean.status, clean.stdout.slice(-2000)).toBe(0);
    // A run with failures writes the failure attachments (redacted exchanges, curl lines) too.
    const failing = run(
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
      for (const text of readable(path)) {
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
