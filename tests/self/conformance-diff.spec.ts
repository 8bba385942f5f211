import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareAnswers, type Answer } from '../../lib/conformance-diff/compare.ts';
import type { DiffReport } from '../../lib/conformance-diff/render.ts';
import { diffRequests } from '../../lib/conformance-diff/requests.ts';
import { loadContract } from '../../lib/contract/index.ts';
import { projectPath } from '../../lib/paths.ts';
import { liveEnvFor } from '../../mock/live-env.ts';
import { createMock, type Mock } from '../../mock/server.ts';
import { expect, MOCK_NOW, test } from '../fixtures.ts';
import { tsxArgs } from './support/commands.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const CANARY_KEY = 'canary-diff-key-5e1b7a90c3';
const CANARY_TOKEN = 'canarydifftoken8d2f4a6b1e';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
}

/** Runs the script as `npm run conformance:diff` would, with only the settings given (never the caller's). */
function conformanceDiff(settings: Record<string, string>, args: string[] = []): Promise<Run> {
  const dir = scratchFolder('diff');
  const envFile = join(dir, 'service.env');
  const lines = Object.entries({ ...settings, CLM_REPORTS_DIR: join(dir, 'reports') });
  writeFileSync(envFile, lines.map(([name, value]) => `${name}=${value}`).join('\n'));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CLM_|MOCK_FAULTS$|FC_)/.test(name)),
  );
  // Asynchronous: the service under comparison answers from this very process.
  const child = spawn(process.execPath, tsxArgs('scripts/conformance-diff.ts', args), {
    cwd: projectPath('.'),
    env: { ...env, CLM_ENV_FILE: envFile },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, dir })));
}

/** A mock reached as the live service, with canaries for its key and token. */
async function serviceMock(
  faults: string[] = [],
): Promise<{ mock: Mock; settings: Record<string, string>; served: () => number }> {
  let served = 0;
  const mock = await createMock({ seed: 1, now: MOCK_NOW, faults, onRequest: () => served++ });
  mock.state.allowKey(CANARY_KEY);
  const { userId } = mock.state.examples();
  mock.state.issueToken({
    value: CANARY_TOKEN,
    userId,
    scopes: ['profile_max'],
    expiresAt: Infinity,
    label: 'CLM_USER_TOKEN',
  });
  const settings = {
    ...liveEnvFor(mock),
    CLM_API_KEY: CANARY_KEY,
    CLM_USER_TOKEN: CANARY_TOKEN,
    CLM_RATE_LIMIT: '1000',
  };
  return { mock, settings, served: () => served };
}

const report = (run: Run) =>
  JSON.parse(readFileSync(join(run.dir, 'reports', 'diff.json'), 'utf8')) as DiffReport;

/** Neither canary in anything the run printed or wrote. */
function expectNoCanary(run: Run): void {
  const texts = [
    run.stdout,
    run.stderr,
    ...readdirSync(join(run.dir, 'reports')).map((f) => readFileSync(join(run.dir, 'reports', f), 'utf8')),
  ];
  for (const text of texts) {
    expect(text.includes(CANARY_KEY), 'the key in the output').toBe(false);
    expect(text.includes(CANARY_TOKEN), 'the token in the output').toBe(false);
  }
}

test.describe('conformance:diff, the mock against a service', () => {
  test('a mock with the same seed and clock as the service: no difference, exit 0, the key never shown', async () => {
    const { mock, settings } = await serviceMock();
    try {
      const run = await conformanceDiff(settings, ['--now', MOCK_NOW]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const r = report(run);
      expect(r.verdict).toBe('same');
      expect(r.differences).toBe(0);
      expect(r.pairs.compared).toBe(r.pairs.total);
      expect(r.pairs.total).toBe(diffRequests(await loadContract()).length);
      expect(run.stdout).toContain('0 differences');
      // Both walks reached the same full page, so the page limit was put to the test.
      const walk = r.operations.flatMap((o) => o.results).find((p) => p.id === 'listNotifications full-page');
      for (const side of [walk?.mock, walk?.live])
        expect(side?.notes.join(' ')).toContain('compared the first full page, 200 (limit 200');
      for (const name of ['diff.md', 'diff.html'])
        expect(readdirSync(join(run.dir, 'reports'))).toContain(name);
      expectNoCanary(run);
    } finally {
      await mock.close();
    }
  });

  test('a service that retired the v1 endpoints (410): gone, not compared and no difference, exit 0', async () => {
    const { mock, settings } = await serviceMock();
    mock.state.v1Retirement = 410;
    try {
      const run = await conformanceDiff(settings, ['--now', MOCK_NOW]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const r = report(run);
      expect(r.differences).toBe(0);
      const contract = await loadContract();
      const v1 = r.operations.filter((o) => contract.operation(o.operation).deprecated);
      expect(v1.length, 'deprecated operations compared').toBeGreaterThan(0);
      for (const o of v1)
        for (const pair of o.results)
          expect(pair.skipped, pair.id).toMatch(/^gone: the service answered 410/);
    } finally {
      await mock.close();
    }
  });
});

test.describe('conformance:diff against a service that breaks the contract', () => {
  test('a service whose licence lacks issueReason: the service breaks the contract there, exit 1', async () => {
    const { mock, settings } = await serviceMock(['licence-missing-issue-reason']);
    try {
      const run = await conformanceDiff(settings, ['--now', MOCK_NOW]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const r = report(run);
      expect(r.verdict).toBe('different');
      const found = r.operations.flatMap((o) =>
        o.results.flatMap((p) => p.differences.map((d) => ({ ...d, id: p.id }))),
      );
      expect(found).toEqual([
        expect.objectContaining({
          id: 'getLicence success',
          aspect: 'field',
          at: '/issueReason',
          class: 'service-breaks-contract',
          mock: 'present (string)',
          live: 'absent',
        }),
      ]);
      const markdown = readFileSync(join(run.dir, 'reports', 'diff.md'), 'utf8');
      expect(markdown).toContain('**the service breaks the contract**: field `/issueReason`');
      expect(markdown.indexOf('## getLicence')).toBeLessThan(markdown.indexOf('## listNotifications'));
      expectNoCanary(run);
    } finally {
      await mock.close();
    }
  });

  test('a service whose full pages hold 201 changes: the service breaks the contract under listNotifications, exit 1', async () => {
    const { mock, settings } = await serviceMock(['page-of-201']);
    try {
      const run = await conformanceDiff(settings, ['--now', MOCK_NOW]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const found = report(run).operations.flatMap((o) =>
        o.results.flatMap((p) => p.differences.map((d) => ({ ...d, operation: o.operation, id: p.id }))),
      );
      expect(found).toEqual([
        expect.objectContaining({
          operation: 'listNotifications',
          id: 'listNotifications full-page',
          aspect: 'page size',
          at: '/notifications',
          class: 'service-breaks-contract',
          mock: '200 (within the limit 200)',
          live: '201 (over the limit 200)',
        }),
      ]);
      expect(run.stdout).toContain('1 the service breaks the contract');
    } finally {
      await mock.close();
    }
  });
});

test.describe('conformance:diff cut short by its budget or stopped by a bad setting', () => {
  test('a run cut short by its budget is incomplete, exit 1, and the service sees no more than the budget', async () => {
    const { mock, settings, served } = await serviceMock();
    try {
      const run = await conformanceDiff({ ...settings, CLM_REQUEST_BUDGET: '7' }, ['--now', MOCK_NOW]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      const r = report(run);
      expect(r.verdict).toBe('incomplete');
      expect(r.stopped).toContain('CLM_REQUEST_BUDGET');
      expect(r.sent.live).toBe(7);
      expect(served()).toBe(7);
      expect(r.pairs.notRun).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });

  test('a bad setting stops the run before any request, naming the variable, exit 2', async () => {
    const run = await conformanceDiff({ CLM_BASE_URL: 'http://127.0.0.1:9', CLM_API_KEY: CANARY_KEY });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CLM_BASE_URL');
    expect(run.stderr).not.toContain(CANARY_KEY);
  });
});

test.describe('how a difference is classed', () => {
  const licence = {
    id: 'e44e5915-e187-4114-a942-a361d7a7333f',
    creationDateTime: '2016-03-10T09:15:22.123Z',
    products: [{ code: 'P1', name: 'Premium' }],
    issueReason: 'Contract Signed',
    links: [],
    status: 'active',
    href: '/licences/x',
    seatsHref: [],
    seatLimit: 1,
    ipAccessEnabled: true,
    ipAccessAddresses: [],
    adminsHref: [],
  };
  const answer = (status: number, value: unknown): Answer => ({
    url: '/licence/x',
    status,
    mediaType: 'application/json',
    headers: {},
    body: { kind: 'json', value },
    failures: [],
  });
  const classes = async (kind: string, mock: Answer, live: Answer) => {
    const contract = await loadContract();
    const request = diffRequests(contract).find((r) => r.id === `getLicence ${kind}`)!;
    return compareAnswers(contract, request, mock, live).differences.map((d) => [d.aspect, d.at, d.class]);
  };

  test('a field the contract does not name, on one side only: the contract is silent', async () => {
    expect(await classes('success', answer(200, licence), answer(200, { ...licence, region: 'EU' }))).toEqual(
      [['field', '/region', 'contract-silent']],
    );
  });

  test('a required field the mock lacks: the mock is wrong', async () => {
    const { issueReason: _, ...without } = licence;
    expect(await classes('success', answer(200, without), answer(200, licence))).toEqual([
      ['field', '/issueReason', 'mock-wrong'],
    ]);
  });

  test('the mock refuses what the service serves and the contract documents: the mock is wrong', async () => {
    expect(await classes('success', answer(404, { message: 'No licence' }), answer(200, licence))).toEqual([
      ['status', undefined, 'mock-wrong'],
    ]);
  });

  test('the service serves a request without a key: the service breaks the contract', async () => {
    expect(await classes('no-key', answer(403, { message: 'No key' }), answer(200, licence))).toEqual([
      ['status', undefined, 'service-breaks-contract'],
    ]);
  });

  test('array elements one side has none of are counts, not differences', async () => {
    const links = [{ rel: 'contract', href: 'https://api.ft.com/contracts/FT-13990275', id: 'FT-13990275' }];
    expect(await classes('success', answer(200, licence), answer(200, { ...licence, links }))).toEqual([]);
  });
});
