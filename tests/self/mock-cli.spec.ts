import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { parse } from 'dotenv';
import { loadConfig } from '../../lib/config.ts';
import { projectPath } from '../../lib/contract/index.ts';

// node with tsx's loader, not the tsx command: the mock is then one process to stop, and its
// options reach it untouched.
const NODE_ARGS = [
  '--import',
  pathToFileURL(projectPath('node_modules/tsx/dist/esm/index.mjs')).href,
  projectPath('mock/cli.ts'),
];

/** `npm run mock` in a directory of its own, stopped once it has printed its banner. */
async function mockBanner(cwd: string, ...args: string[]): Promise<string> {
  const child = spawn(process.execPath, [...NODE_ARGS, '--port', '0', '--http-port', '0', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${output}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Ctrl-C stops it.')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('exit', (code) =>
        reject(new Error(`the mock exited (${code}) before its banner:\n${output}`)),
      );
    });
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  return output;
}

test.describe('npm run mock and the settings of a live run', () => {
  test('prints them with how to use them, and writes no file unless asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-mock-cli-'));
    const banner = await mockBanner(dir);
    expect(banner).toContain('never in .env');
    expect(banner).toMatch(/^ {2}CLM_BASE_URL=https:\/\/127\.0\.0\.1:\d+$/m);
    expect(banner).toContain('CLM_ENV_FILE=.env.mock npm run conformance:live');
    expect(readdirSync(dir)).toEqual([]);
  });

  test('writes them to the file --write-env names, ready for CLM_ENV_FILE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clm-mock-cli-'));
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
      const dir = mkdtempSync(join(tmpdir(), 'clm-mock-cli-'));
      // Through the tsx command, as npm run mock does: tsx must leave the option to the mock.
      const tsx = projectPath('node_modules/tsx/dist/cli.mjs');
      const cli = projectPath('mock/cli.ts');
      const run = spawnSync(process.execPath, [tsx, cli, '--port', '0', '--write-env', file], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`--write-env will not write ${file}`);
      expect(run.stderr).toContain('--write-env .env.mock');
      expect(existsSync(join(dir, file))).toBe(false);
    });
});
