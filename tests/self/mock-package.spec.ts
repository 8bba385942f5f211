import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { projectRoot } from '../../lib/paths.ts';
import { startMock } from '../../mock/index.ts';
import type { RequestLogEntry } from '../../mock/server.ts';
import { scratchFolder } from '../../lib/scratch.ts';

// npm run inside a test may hand its own settings (a prefix among them) down to every npm it
// starts: each command here sees none of them, so it works on the folder it is given.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

function npm(cwd: string, ...args: string[]): string {
  const run = spawnSync('npm', args, { cwd, env: ENV, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${run.status}):\n${run.stderr}`);
  return run.stdout;
}

/** GET over HTTPS, the mock's self-signed certificate accepted. */
function status(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

/** A consumer app in `dir`, with the packed tarball installed in it. */
function installTarball(dir: string, filename: string): string {
  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{ "name": "clm-consumer", "private": true, "type": "module" }\n');
  const tarball = join(dir, filename);
  npm(app, 'install', tarball, '--prefix', app, '--no-audit', '--no-fund', '--prefer-offline');
  return app;
}

/** The installed clm-mock started with --log: it answers one GET with the key in the query, then stops. */
async function startsAndAnswers(app: string, log: string): Promise<void> {
  const bin = realpathSync(join(app, 'node_modules/.bin/clm-mock'));
  const child = spawn(process.execPath, [bin, '--port', '0', '--http-port', '0', '--log', log], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let banner = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        banner += chunk.toString('utf8');
        if (banner.includes('Ctrl-C stops it.')) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (banner += chunk.toString('utf8')));
      child.once('exit', (code) => reject(new Error(`clm-mock exited (${code}):\n${banner}`)));
    });
    const url = /^ {2}HTTPS +(https:\/\/127\.0\.0\.1:\d+)/m.exec(banner)?.[1];
    const key = /^Keys \(.*\): ([\w-]+)/m.exec(banner)?.[1];
    expect(url, banner).toBeDefined();
    expect(key, banner).toBeDefined();
    expect(await status(`${url}/trial-exclusions/ip-addresses?apiKey=${key}`, {})).toBe(200);
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

test.describe('the mock as a dependency', () => {
  test('startMock starts it on free loopback ports, answers a demo key, and stops', async ({ request }) => {
    const mock = await startMock({ seed: 3 });
    try {
      expect(mock.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(mock.keys).toContain('mock-key-primary');
      expect(Object.values(mock.tokens).every(Boolean)).toBe(true);
      const response = await request.get(`${mock.url}/licence/${mock.ids.licenceId}`, {
        headers: { 'X-Api-Key': mock.keys[0]! },
        ignoreHTTPSErrors: true,
      });
      expect(response.status()).toBe(200);
    } finally {
      await mock.stop();
    }
  });

  test('npm pack ships a clm-mock that installs, answers and logs without the key', async () => {
    test.slow();
    const dir = scratchFolder('mock-pack');
    const [packed] = JSON.parse(npm(projectRoot, 'pack', '--json', '--pack-destination', dir)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed!.files.map((f) => f.path);
    for (const needed of [
      'build/package/mock/cli.js',
      'build/package/openapi/openapi.yaml',
      'build/package/redocly.yaml',
    ])
      expect(files).toContain(needed);
    expect(files.filter((f) => /(^|\/)\.env|^(reports|tests|scripts)\//.test(f))).toEqual([]);

    const app = installTarball(dir, packed!.filename);

    const log = join(dir, 'requests.log');
    await startsAndAnswers(app, log);
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain('mock-key');
    const [entry, ...more] = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as RequestLogEntry);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/trial-exclusions/ip-addresses?apiKey=***',
      status: 200,
      faults: [],
    });

    // What a client's own tests import: the package's ./mock entry, resolved by node from the app.
    const use = `import { startMock } from 'clm-conformance/mock';
const mock = await startMock({ rateLimit: true });
console.log(JSON.stringify({ url: mock.url, keys: mock.keys }));
await mock.stop();`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', use], {
      cwd: app,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      url: expect.stringMatching(/^https:/),
      keys: expect.any(Array),
    });
  });
});
