import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { ConfigError, loadConfig } from '../../lib/config.ts';

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
  [{ CLM_RUN_TIMEOUT: 'soon' }, 'CLM_RUN_TIMEOUT'],
  [{ CLM_REQUEST_TIMEOUT: '0' }, 'CLM_REQUEST_TIMEOUT'],
  [{ CLM_MAX_BODY_BYTES: '1.5' }, 'CLM_MAX_BODY_BYTES'],
  [{ CLM_MAX_RETRY_AFTER: '-1' }, 'CLM_MAX_RETRY_AFTER'],
  [{ CLM_INSECURE_TLS: 'yes' }, 'CLM_INSECURE_TLS'],
  [{ CLM_USER_TOKEN: 'token-without-user' }, 'CLM_USER_ID'],
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
      CLM_API_KEY: 'k',
    });
    expect(live).toMatchObject({
      baseUrl: 'https://api.example.com',
      rateLimit: 2,
      requestBudget: 1000,
      fcRuns: 10,
    });
  });

  for (const [variable, value, message] of [
    ['CLM_RATE_LIMIT', 'fast', 'CLM_RATE_LIMIT: "fast" is not a positive number'],
    ['MOCK_FAULTS', 'no-such-fault', 'MOCK_FAULTS: unknown fault no-such-fault'],
  ] as const)
    test(`stops the run before any request, naming ${variable}`, () => {
      const run = spawnSync('npx', ['playwright', 'test', '--project=mock', '--list'], {
        env: { ...process.env, [variable]: value, FC_SEED: '' },
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
    });
});
