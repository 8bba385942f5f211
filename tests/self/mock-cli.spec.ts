import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'dotenv';
import { loadConfig } from '../../lib/config.ts';
import { projectPath } from '../../lib/paths.ts';
import type { RequestLogEntry } from '../../mock/server.ts';
import { KEY, mockBanner, send, startCli, type Reply } from './support/mock-cli.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const tempDir = () => scratchFolder('mock-cli');

/** The mock run to its refusal, through the tsx command as npm run mock does: tsx must leave the options to it. */
function refusal(dir: string, ...args: string[]) {
  const tsx = projectPath('node_modules/tsx/dist/cli.mjs');
  const cli = projectPath('mock/cli.ts');
  return spawnSync(process.execPath, [tsx, cli, '--port', '0', ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

test.describe('npm run mock and the settings of a live run', () => {
  test('prints them with how to use them, and writes no file unless asked', async () => {
    const dir = tempDir();
    const banner = await mockBanner(dir);
    expect(banner).toContain('never in .env');
    expect(banner).toMatch(/^ {2}CLM_BASE_URL=https:\/\/127\.0\.0\.1:\d+$/m);
    expect(banner).toContain('CLM_ENV_FILE=.env.mock npm run conformance:live');
    expect(readdirSync(dir)).toEqual([]);
  });

  test('writes them to the file --write-env names, ready for CLM_ENV_FILE', async () => {
    const dir = tempDir();
    const banner = await mockBanner(dir, '--write-env', '.env.mock');
    expect(readdirSync(dir)).toEqual(['.env.mock']);
    expect(banner).toContain('CLM_ENV_FILE=.env.mock npm run conformance:live');
    const settings = parse(readFileSync(join(dir, '.env.mock'), 'utf8'));
    // The target is left to the command: the same file must not turn a mock-mode run live.
    expect(settings.CLM_TARGET).toBeUndefined();
    const config = loadConfig({ ...settings, CLM_TARGET: 'live' });
    expect(config).toMatchObject({ target: 'live', rateLimit: 50, insecureTls: true });
    expect(banner).toContain(`CLM_BASE_URL=${config.baseUrl}`);
  });

  for (const file of ['.env', 'config/.env'])
    test(`refuses --write-env ${file} before it starts, naming .env.mock instead`, () => {
      const dir = tempDir();
      const run = refusal(dir, '--write-env', file);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`--write-env will not write ${file}`);
      expect(run.stderr).toContain('--write-env .env.mock');
      expect(existsSync(join(dir, file))).toBe(false);
    });
});

test.describe('the standalone mock and its options', () => {
  test('publishes 1,000 changes a day on the real clock; --changes sizes only a feed that stands still', async () => {
    const dir = tempDir();
    expect(await mockBanner(dir)).toContain('Publishing: 1000 changes a day');
    const still = await mockBanner(dir, '--publish', '0', '--changes', '5000');
    expect(still).toContain('5000 changes in the feed');
    expect(still).toContain('Publishing: off');
    const run = refusal(dir, '--changes', '5000');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--changes sizes a feed that stands still');
  });

  test('listens on every interface with --host 0.0.0.0, answers on 127.0.0.1, links by the Host used', async () => {
    const mock = await startCli(tempDir(), '--host', '0.0.0.0');
    try {
      expect(mock.banner).toContain('listening on 0.0.0.0 (every interface)');
      expect(mock.https).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect((await send(mock.https, '/trial-exclusions/ip-addresses', { 'X-Api-Key': KEY })).status).toBe(
        200,
      );
      const port = new URL(mock.https).port;
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const feed = await send(mock.https, `/content/notifications?since=${since}`, {
        'X-Api-Key': KEY,
        Host: `localhost:${port}`,
      });
      expect(feed.status).toBe(200);
      expect((JSON.parse(feed.body) as { requestUrl: string }).requestUrl).toMatch(
        new RegExp(`^https://localhost:${port}/content/notifications\\?since=`),
      );
    } finally {
      await mock.stop();
    }
  });

  test('--rate-limit throttles a key as the real service does: a burst of 5 meets 429 with Retry-After', async () => {
    const mock = await startCli(tempDir(), '--rate-limit');
    try {
      expect(mock.banner).toContain('Rate limit: 2/s, 5000/day per key');
      const replies: Reply[] = [];
      for (let i = 0; i < 5; i++)
        replies.push(await send(mock.https, '/trial-exclusions/ip-addresses', { 'X-Api-Key': KEY }));
      const throttled = replies.filter((r) => r.status === 429);
      expect(replies[0]!.status).toBe(200);
      expect(throttled.length).toBeGreaterThan(0);
      for (const reply of throttled) expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Per key: another key still has its allowance.
      const other = await send(mock.https, '/trial-exclusions/ip-addresses', {
        'X-Api-Key': 'mock-key-secondary',
      });
      expect(other.status).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  test('throttles no key without --rate-limit, and says so', async () => {
    const mock = await startCli(tempDir());
    try {
      expect(mock.banner).toContain('Rate limit: off');
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++)
        statuses.push(
          (await send(mock.https, '/trial-exclusions/ip-addresses', { 'X-Api-Key': KEY })).status,
        );
      expect(statuses).toEqual(Array(20).fill(200));
    } finally {
      await mock.stop();
    }
  });
});

test.describe('the standalone mock: its request log (--log)', () => {
  test('--log writes one JSON line per request, with no key or token in it', async () => {
    const dir = tempDir();
    const mock = await startCli(dir, '--log', 'requests.log', '--control');
    const examples = /Bearer tokens[^\n]*\n {2}(\S+) {2}user (\S+)/.exec(mock.banner)!;
    const [, token, userId] = examples as unknown as [string, string, string];
    try {
      await send(mock.https, '/trial-exclusions/ip-addresses', { 'X-Api-Key': KEY });
      await send(mock.https, `/trial-exclusions/ip-addresses?apiKey=${KEY}&APIKEY=${KEY}`);
      await send(mock.http, `/users/${userId}/profile/full?apiKey=${KEY}`);
      await send(mock.https, `/users/${userId}/profile/full`, {
        'X-Api-Key': KEY,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Prefer: 'faults=throttle-without-retry-after',
      });
    } finally {
      await mock.stop();
    }
    const text = readFileSync(join(dir, 'requests.log'), 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(token);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const entries = lines.map((line) => JSON.parse(line) as RequestLogEntry);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual([
        'credentials',
        'faults',
        'method',
        'ms',
        'path',
        'scheme',
        'status',
        'time',
      ]);
      expect(new Date(entry.time).toISOString()).toBe(entry.time);
      expect(entry.ms).toBeGreaterThanOrEqual(0);
    }
    expect(entries.map((e) => [e.scheme, e.method, e.path, e.status, e.faults, e.credentials])).toEqual([
      ['https', 'GET', '/trial-exclusions/ip-addresses', 200, [], ['X-Api-Key']],
      // APIKEY is no key to the mock (an unknown parameter, 400), but masked all the same.
      ['https', 'GET', '/trial-exclusions/ip-addresses?apiKey=***&APIKEY=***', 400, [], ['apiKey']],
      ['http', 'GET', `/users/${userId}/profile/full?apiKey=***`, 301, [], ['apiKey']],
      [
        'https',
        'GET',
        `/users/${userId}/profile/full`,
        200,
        ['throttle-without-retry-after'],
        ['X-Api-Key', 'Authorization'],
      ],
    ]);
  });
});

test.describe('the standalone mock: a docs folder (--docs)', () => {
  test('--docs serves a folder under /docs/ on both ports: GET only, typed, never outside it', async () => {
    const dir = tempDir();
    const docs = join(dir, 'docs');
    mkdirSync(join(docs, 'assets'), { recursive: true });
    writeFileSync(join(docs, 'index.html'), '<h1>docs</h1>');
    writeFileSync(join(docs, 'assets', 'site.css'), 'h1 {}');
    writeFileSync(join(dir, 'secret.txt'), 'not for the web');
    symlinkSync(join(dir, 'secret.txt'), join(docs, 'linked.txt'));
    const mock = await startCli(dir, '--docs', docs);
    try {
      expect(mock.banner).toContain(`Docs   ${mock.https}/docs/ and ${mock.http}/docs/`);
      for (const base of [mock.https, mock.http]) {
        const index = await send(base, '/docs/');
        expect([index.status, index.headers['content-type'], index.body]).toEqual([
          200,
          'text/html; charset=utf-8',
          '<h1>docs</h1>',
        ]);
      }
      expect((await send(mock.http, '/docs/assets/site.css')).headers['content-type']).toBe(
        'text/css; charset=utf-8',
      );
      const bare = await send(mock.http, '/docs');
      expect([bare.status, bare.headers.location]).toEqual([301, '/docs/']);
      expect((await send(mock.http, '/docs/', {}, 'POST')).status).toBe(405);
      expect((await send(mock.http, '/docs/missing.html')).status).toBe(404);
      for (const path of [
        '/docs/../secret.txt',
        '/docs/%2e%2e/secret.txt',
        '/docs/..%2fsecret.txt',
        '/docs/linked.txt',
      ]) {
        const reply = await send(mock.http, path);
        expect(reply.status, path).toBeGreaterThanOrEqual(400);
        expect(reply.body, path).not.toContain('not for the web');
      }
    } finally {
      await mock.stop();
    }
  });
});
