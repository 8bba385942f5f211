import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { hostileEnv, startHostile, type HostileKind } from './servers/hostile.ts';
import { mergeReports, runLive, runPlaywright, type NestedRun } from './support/nested-run.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/** The code an incomplete run exits with (README, "Running against a live service"). */
const INCOMPLETE = 3;

interface Report {
  verdict: string;
  incomplete: string[];
  meta: { partial: string[] };
}

const report = (dir: string, partial = false) =>
  JSON.parse(
    readFileSync(join(dir, 'reports', ...(partial ? ['partial'] : []), 'conformance.json'), 'utf8'),
  ) as Report;
const tmp = (name: string) => scratchFolder(`incomplete-${name}`);
const tail = (run: NestedRun) => `${run.stdout.slice(-3000)}\n${run.stderr.slice(-1000)}`;

/** A short live run against a service that answers every request with one kind of misbehaviour. */
async function liveAgainst(
  kind: HostileKind,
  dir: string,
  more: Record<string, string> = {},
  args: string[] = [],
) {
  const hostile = await startHostile({ mode: kind });
  try {
    return await runLive({
      dir,
      args,
      env: {
        ...hostileEnv(hostile, { key: 'incomplete-key', token: 'incomplete-token' }),
        CLM_RATE_LIMIT: '50',
        CLM_MAX_RETRY_AFTER: '5',
        CLM_REQUEST_TIMEOUT: '3',
        CLM_RUN_TIMEOUT: '30',
        ...more,
      },
      timeoutMs: 90_000,
    });
  } finally {
    await hostile.close();
  }
}

test.describe('an incomplete run is never green', () => {
  test.describe.configure({ mode: 'parallel' });
  test.setTimeout(150_000);

  test('the whole live suite against a service that only sends oversized bodies exits 3, incomplete, with the reason', async () => {
    const dir = tmp('huge');
    // A small cap: the 50 MB body is cut after 64 KiB, so the run stops in seconds.
    const run = await liveAgainst('huge', dir, { CLM_MAX_BODY_BYTES: '65536' });
    expect(run.status, tail(run)).toBe(INCOMPLETE);
    const { verdict, incomplete, meta } = report(dir);
    expect(meta.partial, 'the whole suite, not a part of it').toEqual([]);
    expect(verdict).toBe('incomplete');
    expect(incomplete.join('; ')).toMatch(/larger than/);
    expect(incomplete.join('; ')).toMatch(/test\(s\) not run/);
    expect(run.stdout).toContain('Verdict: INCOMPLETE');
  });

  test('a shard against a service that only throttles exits 3, and so does the merge of its blob, as on the nightly', async () => {
    const dir = tmp('throttle');
    const shard = await liveAgainst('throttle', dir, { CLM_BLOB: '1' }, ['--shard=1/1']);
    expect(shard.status, tail(shard)).toBe(INCOMPLETE);
    const own = report(dir, true);
    expect(own.meta.partial).toEqual(['shard 1 of 1']);
    expect(own.incomplete.join('; ')).toMatch(/asked to wait 3600 s/);

    const blobs = join(dir, 'reports', 'blob');
    expect(readdirSync(blobs).length, 'the shard wrote its blob').toBeGreaterThan(0);
    const merged = join(dir, 'merged');
    mkdirSync(merged);
    const merge = await mergeReports(blobs, {
      dir: merged,
      env: { CLM_TARGET: 'live', CLM_BASE_URL: 'https://127.0.0.1:9', CLM_API_KEY: 'incomplete-key' },
      timeoutMs: 90_000,
    });
    expect(merge.status, tail(merge)).toBe(INCOMPLETE);
    const { verdict, incomplete, meta } = report(merged);
    expect([verdict, meta.partial]).toEqual(['incomplete', []]);
    // The merge has no ledger: the reason comes from the shard's tests, as the nightly summary needs it.
    expect(incomplete.join('; ')).toMatch(/test\(s\) not run \(the service asked to wait 3600 s/);
  });

  test('a partial run that ran all it selected keeps exit 0: partial is no reason to fail', async () => {
    const dir = tmp('partial');
    const file = 'tests/conformance/trial-exclusions.spec.ts';
    // Four tests: one worker starts one mock, where one per core would start two for the same tests.
    const run = await runPlaywright('mock', { dir, args: [file, '--workers=1'], timeoutMs: 90_000 });
    expect(run.status, tail(run)).toBe(0);
    const { verdict, incomplete } = report(dir, true);
    expect(verdict).toBe('incomplete');
    expect(incomplete).toEqual([`a partial run (files named (${file}))`]);
  });
});
