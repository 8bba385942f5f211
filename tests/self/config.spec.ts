import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { projectPath } from '../../lib/paths.ts';
import { playwrightArgs, TSX_LOADER } from './support/commands.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/**
 * The configuration as a fresh process in `cwd` loads it from its environment and files: the
 * loader writes what it reads into process.env, which must not leak into this worker's tests.
 */
function configIn(cwd: string, env: Record<string, string>): { rateLimit?: number; error?: string } {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CLM|FC|MOCK)_/.test(name)),
  );
  const code = `import(${JSON.stringify(projectPath('lib/config.ts'))}).then(({ loadConfig }) => {
    try { console.log(JSON.stringify({ rateLimit: loadConfig().rateLimit })); }
    catch (error) { console.log(JSON.stringify({ error: error.message })); }
  });`;
  const run = spawnSync(process.execPath, [...TSX_LOADER, '-e', code], {
    cwd,
    env: { ...clean, ...env },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { rateLimit?: number; error?: string };
}

const bad: [Record<string, string>, string][] = [
  [{ CLM_TARGET: 'staging' }, 'CLM_TARGET'],
  [{ CLM_BASE_URL: 'http://api.example.com' }, 'CLM_BASE_URL'],
  [{ CLM_BASE_URL: 'not a url' }, 'CLM_BASE_URL'],
  [{ CLM_BASE_URL: 'https://user:pw@api.example.com' }, 'CLM_BASE_URL'],
  [{ CLM_HTTP_BASE_URL: 'https://api.example.com' }, 'CLM_HTTP_BASE_URL'],
  [{ CLM_RATE_LIMIT: '0' }, 'CLM_RATE_LIMIT'],
  [{ CLM_RATE_LIMIT: 'fast' }, 'CLM_RATE_LIMIT'],
  [{ CLM_REQUEST_BUDGET: '2.5' }, 'CLM_REQUEST_BUDGET'],
  [{ FC_RUNS: '-3' }, 'FC_RUNS'],
  [{ FC_SEED: 'abc' }, 'FC_SEED'],
  [{ FC_PATH: 'x:y' }, 'FC_PATH'],
  [{ FC_REPLAY_PATH: 'BB AA' }, 'FC_REPLAY_PATH'],
  [{ CLM_RUN_TIMEOUT: 'soon' }, 'CLM_RUN_TIMEOUT'],
  [{ CLM_REQUEST_TIMEOUT: '0' }, 'CLM_REQUEST_TIMEOUT'],
  [{ CLM_MAX_BODY_BYTES: '1.5' }, 'CLM_MAX_BODY_BYTES'],
  [{ CLM_MAX_RETRY_AFTER: '-1' }, 'CLM_MAX_RETRY_AFTER'],
  [{ CLM_INSECURE_TLS: 'yes' }, 'CLM_INSECURE_TLS'],
  [{ CLM_USER_TOKEN: 'token-without-user' }, 'CLM_USER_ID'],
  [{ CLM_API_KEY: 'short' }, 'CLM_API_KEY'],
  [{ CLM_USER_ID: 'u', CLM_USER_TOKEN: 'tok' }, 'CLM_USER_TOKEN'],
  [{ CLM_TARGET: 'live' }, 'CLM_BASE_URL'],
  [{ CLM_TARGET: 'live', CLM_BASE_URL: 'https://api.example.com' }, 'CLM_API_KEY'],
];

test.describe('the configuration loader', () => {
  for (const [env, variable] of bad) {
    test(`names ${variable} when ${JSON.stringify(env)}`, () => {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as Error).message).toMatch(new RegExp(`^${variable}: `));
    });
  }

  test('gives safe defaults: the mock, and 2 requests a second with a budget live', () => {
    expect(loadConfig({})).toMatchObject({ target: 'mock', fcRuns: 100, rateLimit: Infinity });
    const live = loadConfig({
      CLM_TARGET: 'live',
      CLM_BASE_URL: 'https://api.example.com/',
      CLM_API_KEY: 'a-live-key',
    });
    expect(live).toMatchObject({
      baseUrl: 'https://api.example.com',
      rateLimit: 2,
      requestBudget: 1000,
      fcRuns: 10,
    });
  });

  test.describe('with CLM_ENV_FILE', () => {
    let dir: string;
    test.beforeAll(() => {
      dir = scratchFolder('env-file');
      writeFileSync(join(dir, '.env'), 'CLM_RATE_LIMIT=3\n');
      writeFileSync(join(dir, '.env.mock'), 'CLM_RATE_LIMIT=7\n');
    });

    test('reads the file it names in place of .env', () => {
      expect(configIn(dir, {})).toEqual({ rateLimit: 3 });
      expect(configIn(dir, { CLM_ENV_FILE: '.env.mock' })).toEqual({ rateLimit: 7 });
    });

    test('lets the environment override the file, as it does .env', () => {
      expect(configIn(dir, { CLM_ENV_FILE: '.env.mock', CLM_RATE_LIMIT: '9' })).toEqual({ rateLimit: 9 });
    });

    test('names CLM_ENV_FILE when the file does not exist', () => {
      expect(configIn(dir, { CLM_ENV_FILE: '.env.missing' })).toEqual({
        error: 'CLM_ENV_FILE: no file .env.missing (the file read in place of .env)',
      });
    });
  });

  for (const [variable, value, message] of [
    ['CLM_RATE_LIMIT', 'fast', 'CLM_RATE_LIMIT: "fast" is not a positive number or none'],
    ['MOCK_FAULTS', 'no-such-fault', 'MOCK_FAULTS: unknown fault no-such-fault'],
    ['CLM_ENV_FILE', 'no-such.env', 'CLM_ENV_FILE: no file no-such.env'],
  ] as const)
    test(`stops the run before any request, naming ${variable}`, () => {
      const run = spawnSync(process.execPath, playwrightArgs(['test', '--project=mock', '--list']), {
        env: { ...process.env, [variable]: value, FC_SEED: '' },
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
    });
});

test.describe('the limits of a run', () => {
  test('takes none for no pace, budget or deadline, and nowhere else', () => {
    const live = { CLM_TARGET: 'live', CLM_BASE_URL: 'https://api.example.com/', CLM_API_KEY: 'a-live-key' };
    const none = { CLM_RATE_LIMIT: 'none', CLM_REQUEST_BUDGET: 'none', CLM_RUN_TIMEOUT: 'none' };
    expect(loadConfig({ ...live, ...none })).toMatchObject({
      rateLimit: Infinity,
      requestBudget: Infinity,
      runTimeout: Infinity,
    });
    expect(() => loadConfig({ ...live, CLM_REQUEST_TIMEOUT: 'none' })).toThrow(/^CLM_REQUEST_TIMEOUT: /);
    expect(() => loadConfig({ ...live, CLM_REQUEST_BUDGET: 'never' })).toThrow(
      'CLM_REQUEST_BUDGET: "never" is not a positive whole number or none',
    );
  });
});
