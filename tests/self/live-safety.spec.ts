import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadContract } from '../../lib/contract/index.ts';
import { createMock, type Mock } from '../../mock/server.ts';
import { hostileEnv, startHostile, type HostileKind } from './servers/hostile.ts';
import { DEFAULT_VARIATIONS, startTolerantProxy, type Variation } from './servers/tolerant-proxy.ts';
import { envThroughProxy, runLive, secretsIn, type NestedRun } from './support/nested-run.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/** Canary secrets: found in any file or output, they have leaked. */
const KEY = 'canary-live-key-5d2e81f07c';
const TOKEN = 'canarylivetoken9a41c7e3b2';

/** A short, bounded live run against the hostile service: its settings over the service's own. */
function hostileRun(base: Record<string, string>, bounds: Record<string, string>): Record<string, string> {
  return { ...base, CLM_RATE_LIMIT: '50', CLM_MAX_RETRY_AFTER: '5', ...bounds };
}

interface Report {
  verdict: string;
  incomplete: string[];
  run: { requests: number; budget: number | null; stopped?: string };
  deprecations: { operation: string; gone: number[] }[];
  exploration: { operation: string; positive: number; negative: number }[];
}

/** The deprecated v1 operations, which the tolerant proxy retires. */
const V1_OPERATIONS = [...(await loadContract()).operations.values()]
  .filter((op) => op.deprecated)
  .map((op) => op.id)
  .sort();

/** A run's report: a run of some of the suite (a title filter) writes beside the full run's. */
const report = (dir: string) => {
  const written = ['partial', '.'].map((d) => join(dir, 'reports', d, 'conformance.json')).find(existsSync);
  return JSON.parse(readFileSync(written ?? join(dir, 'reports', 'conformance.json'), 'utf8')) as Report;
};

/** No canary anywhere the run wrote or printed, zipped report data included. */
function expectNoLeak(run: NestedRun): void {
  expect(secretsIn(run, { key: KEY, token: TOKEN })).toEqual([]);
}

const tmp = (name: string) => scratchFolder(`live-${name}`);

/** Credentials never reach another origin, nothing leaks, and the run ends within its bounds. */
async function meetsEveryMisbehaviour(): Promise<void> {
  const hostile = await startHostile({ timing: { stallLimitMs: 60_000 } });
  const dir = tmp('hostile');
  try {
    const run = await runLive({
      dir,
      // The tests that call every operation: each meets its kind of misbehaviour.
      args: ['-g', '@AUTH-0[1-4]|@AUTH-07|@CONT-0[124]|@TE-01|@IMG-0[123]|@DEPR-01'],
      env: hostileRun(hostileEnv(hostile, { key: KEY, token: TOKEN }), {
        CLM_REQUEST_TIMEOUT: '2',
        CLM_RUN_TIMEOUT: '20',
      }),
      timeoutMs: 100_000,
    });
    expect(run.status, run.stdout.slice(-3000)).not.toBeNull();
    expect(run.seconds, 'ended by its deadline').toBeLessThan(20 + 25);
    const foreign = hostile.requests.filter(
      (r) => r.server !== 'main' || r.origin.startsWith('https://localhost:'),
    );
    expect(foreign.length, 'redirects to other origins were followed').toBeGreaterThan(0);
    for (const r of foreign) {
      expect(r.headers['x-api-key'], `${r.origin}${r.url} got the key header`).toBeUndefined();
      expect(r.headers.authorization, `${r.origin}${r.url} got the token`).toBeUndefined();
      expect(r.url, `${r.origin}${r.url} got the key in its query`).not.toMatch(/[?&]apiKey=/);
    }
    const { verdict, incomplete } = report(dir);
    expect(verdict).not.toBe('pass');
    expect(incomplete.join(' ')).toMatch(/not run|did not answer/);
    expectNoLeak(run);
  } finally {
    await hostile.close();
  }
}

/**
 * The two paths a stop takes through a run: a request that gets no answer (its own timeout, the
 * run's deadline behind it) and a service that asks the whole run to wait longer than it may. Every
 * way of not answering meets the client in client-stops.spec.ts; here the run around it.
 */
const STOPS: [string, HostileKind, RegExp, number][] = [
  ['a stalled body', 'stall', /deadline reached|did not answer/, 8],
  // The deadline counts from the run's start: on a loaded machine, 8 s can pass before the first
  // request, and the run would end by its deadline before it met the 429.
  ['429 with Retry-After: 3600', 'throttle', /asked to wait 3600 s/, 30],
];

/** One way a service stops answering: the run ends incomplete, in its bounds, with the reason. */
async function endsIncomplete(kind: HostileKind, reason: RegExp, deadline: number): Promise<void> {
  const hostile = await startHostile({ mode: kind, timing: { stallLimitMs: 60_000 } });
  const dir = tmp(kind);
  try {
    const run = await runLive({
      dir,
      args: ['-g', '@TE-01|@LIC-01|@NOTIF-05|@NOTIF-06'],
      env: hostileRun(hostileEnv(hostile, { key: KEY, token: TOKEN }), {
        CLM_REQUEST_TIMEOUT: '3',
        CLM_RUN_TIMEOUT: String(deadline),
      }),
      timeoutMs: 90_000,
    });
    expect(run.status, run.stdout.slice(-3000)).not.toBeNull();
    expect(run.seconds, 'ended by its deadline').toBeLessThan(deadline + 25);
    const { verdict, incomplete } = report(dir);
    expect(verdict, run.stdout.slice(-2000)).toBe('incomplete');
    expect(incomplete.join(' ')).toMatch(reason);
    expect(run.status, 'the exit code of an incomplete run').toBe(3);
    expectNoLeak(run);
  } finally {
    await hostile.close();
  }
}

test.describe('live runs against a hostile service @AUTH-07 @AUTH-05', () => {
  test.describe.configure({ mode: 'parallel' });
  test.setTimeout(120_000);

  test('credentials never reach another origin, nothing leaks, and the run ends within its bounds', () =>
    meetsEveryMisbehaviour());
  for (const [what, kind, reason, deadline] of STOPS)
    test(`${what} ends the run as incomplete, in its bounds, with the reason and nothing leaked`, () =>
      endsIncomplete(kind, reason, deadline));
});

/** The mocks a proxy block's tests start, closed after the block. */
let mocks: Mock[] = [];

/** A proxy block: its tests in parallel, each with time for whole live runs, its mocks closed after. */
function proxyBlock(): void {
  test.describe.configure({ mode: 'parallel' });
  test.setTimeout(180_000);
  test.afterAll(async () => {
    await Promise.all(mocks.map((m) => m.close()));
    mocks = [];
  });
}

test.describe('live runs through a proxy that varies what the interface leaves open @HTTP-03', () => {
  proxyBlock();

  /** A live run of the suite (or of the tests `grep` names) through the tolerant proxy. */
  async function throughProxy(name: string, variations: readonly Variation[], args: string[] = []) {
    const mock = await createMock({ seed: 1 });
    mocks.push(mock);
    const proxy = await startTolerantProxy({ upstream: mock, variations });
    const dir = tmp(name);
    try {
      const run = await runLive({
        dir,
        args,
        env: { ...envThroughProxy(mock, proxy), CLM_RATE_LIMIT: '1000' },
        timeoutMs: 150_000,
      });
      expect(run.status, run.stdout.slice(-4000)).toBe(0);
      return { requests: proxy.requests.count, report: report(dir) };
    } finally {
      await proxy.close();
    }
  }

  test('the suite stays green on every tolerated variation', async () => {
    const run = await throughProxy('tolerant', DEFAULT_VARIATIONS);
    expect(run.report.verdict).toBe('pass');
    expect(run.requests).toBeGreaterThan(50);
    const gone = run.report.deprecations.filter((d) => d.gone.includes(410));
    expect(gone.map((d) => d.operation).sort(), 'the retired operations, reported gone').toEqual(
      V1_OPERATIONS,
    );
  });

  test('the tests that meet a retired operation answering 404 skip it as gone, exploration included', async () => {
    const variations = [...DEFAULT_VARIATIONS.filter((v) => v !== 'v1-retired'), 'v1-retired-404' as const];
    // Every test that calls a deprecated operation: the DEPR-01 ones, the exploration, the links.
    const grep = 'DEPR-01|from the contract alone|links of the contract|@PAGE-';
    const { report: r } = await throughProxy('retired-404', variations, ['--grep', grep]);
    const gone = r.deprecations.filter((d) => d.gone.includes(404));
    expect(gone.map((d) => d.operation).sort()).toEqual(V1_OPERATIONS);
    // The exploration sent each retired operation its baseline only: the rest is not run, not failed.
    const explored = r.exploration
      .filter((row) => V1_OPERATIONS.includes(row.operation))
      .sort((a, b) => a.operation.localeCompare(b.operation));
    expect(explored.map((row) => [row.operation, row.positive + row.negative])).toEqual(
      V1_OPERATIONS.map((operation) => [operation, 1]),
    );
  });
});

test.describe('live runs through a proxy with 4 workers: the budget and the pace @HTTP-03', () => {
  proxyBlock();

  test('with 4 workers the service sees at most the budget and the pace; the verdict says budget', async () => {
    const mock = await createMock({ seed: 1 });
    mocks.push(mock);
    const proxy = await startTolerantProxy({ upstream: mock, variations: [] });
    const dir = tmp('budget');
    try {
      const run = await runLive({
        dir,
        args: ['--workers=4'],
        env: {
          ...envThroughProxy(mock, proxy),
          CLM_REQUEST_BUDGET: '24',
          CLM_RATE_LIMIT: '4',
        },
        timeoutMs: 120_000,
      });
      expect(run.status, run.stdout.slice(-3000)).not.toBeNull();
      expect(proxy.requests.count, 'requests that reached the service').toBeLessThanOrEqual(24);
      expect(proxy.requests.count).toBeGreaterThan(18);
      // The ledger hands out slots 250 ms apart; between a slot and the proxy, a loaded machine may
      // delay a request by up to a second, so requests bunch there. Unpaced, four workers send all
      // of them within a second or two; paced, they span the slots less that delay.
      const times = proxy.requests.log.map((r) => r.time).sort((a, b) => a - b);
      const span = times.at(-1)! - times[0]!;
      expect(span, 'ms from the first request to the last').toBeGreaterThanOrEqual(
        (times.length - 1) * 250 - 1000,
      );
      const busiest = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));
      expect(busiest, 'requests in the busiest second').toBeLessThanOrEqual(4 + 4);
      const { verdict, incomplete, run: ledger } = report(dir);
      expect(verdict).toBe('incomplete');
      expect(incomplete.join(' ')).toMatch(/budget spent/);
      expect(run.status, 'the exit code of an incomplete run').toBe(3);
      expect(ledger.requests).toBe(proxy.requests.count);
    } finally {
      await proxy.close();
    }
  });
});
