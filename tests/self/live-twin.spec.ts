import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { liveEnvFor } from '../../mock/live-env.ts';
import { createMock, type Mock, type RequestLogEntry } from '../../mock/server.ts';
import { runLive, secretsIn } from './support/nested-run.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/** Changes in the run's burst: more than a page holds. */
const BURST = 250;
/**
 * Changes published one millisecond apart before the burst. The feed of the last day holds 400 to
 * 490 of the twin's own Articles, by the hour, and the twin repeats a change only at a boundary whose
 * change is alone in its millisecond, every second such boundary it serves: a walk from a day ago
 * met none at some hours. These hold its third and fourth boundaries, so it meets one at any hour.
 */
const SPREAD = 450;
/**
 * While the run polls, the test publishes an Article at most this often: well within the twin's
 * cache delay of the newest 10 seconds, so some poll always meets a change it still withholds,
 * however long the nested run takes to start on a busy machine (the burst alone is withheld only
 * from the polls of its first 10 seconds).
 */
const PUBLISH_EVERY_MS = 4_000;

/** A canary key: found anywhere the run wrote or printed, it has leaked. */
const KEY = 'canary-twin-key-61f0e2a8c4';

interface Report {
  verdict: string;
  incomplete: string[];
  rows: { rule: { id: string }; verdict: string }[];
  outages: { status: number; waitedOut: boolean }[];
  drift: { operation: string; status: number; field: string; note?: string }[];
}

/** What the run allowed and said so: each of the twin's ways shows in the drift or the notes. */
function expectNamed({ drift }: Report): void {
  const notes = (d: Report['drift'][number]) => `${d.operation} ${d.status} ${d.field} ${d.note ?? ''}`;
  const said = drift.map(notes).join('\n');
  expect(said).toMatch(/listNotifications 200 link the service links over plain HTTP/);
  expect(said).toMatch(/listNotifications 200 notifications\[\] a change repeated at a page boundary/);
  expect(said).toMatch(/listNotifications 200 since a since in the future is answered 200/);
  expect(said).toMatch(/searchContent 200 results\[\]\.results\[\] .*apiUrl/);
  expect(said).toMatch(/listNotifications 200 links\[\]\.href .*since/);
  expect(said).toMatch(/listNotifications 200 requestUrl requestUrl leaves out type/);
  expect(said).toMatch(/getContent 400 itemId an item id that is not a UUID is answered 400/);
  expect(said).toMatch(/getContent 403 \(body\) .*'message'/);
  expect(said).toMatch(/getContent 200 canonicalWebUrl/);
}

/**
 * The behaviours of the twin a run must meet: each changed at least one answer the suite got, or
 * the run proves nothing of it. Every behaviour of the profile is here or in `NOT_YET_MET`.
 */
const MET_IN_A_RUN = [
  'gateway-outage',
  'next-trailing-slash',
  'http-links',
  'ordinary-key-fields',
  'content-policy-fields',
  'content-403-error-body',
  'content-403-message-body',
  'content-id-not-uuid-400',
  'search-hit-without-apiurl',
  'next-page-alone',
  'articles-only-feed',
  'creates-as-updates',
  'type-and-monitor-stripped',
  'feed-ties-by-uuid',
  'feed-400-texts',
  'at-least-once',
  'latest-per-item',
  'newest-withheld',
  'empty-next-since-only',
  'future-since-empty',
  'image-errors-html',
  'image-source-required',
  'image-no-side-limit',
];

/**
 * Behaviours a run does not meet yet, each with why: a new behaviour starts here until a run meets
 * it, then moves to `MET_IN_A_RUN`.
 */
const NOT_YET_MET: Readonly<Record<string, string>> = {};

/** Each behaviour on met at least once in the run, as the twin counted: `MET_IN_A_RUN` at least. */
function expectMet(mock: Mock): void {
  const met = mock.behavioursMet();
  test.info().annotations.push({ type: 'met', description: JSON.stringify(met) });
  expect(Object.keys(met).sort(), 'every behaviour is to be met or says why not').toEqual(
    [...MET_IN_A_RUN, ...Object.keys(NOT_YET_MET)].sort(),
  );
  const never = MET_IN_A_RUN.filter((name) => !met[name]);
  expect(never, `behaviours the run never met: ${JSON.stringify(met)}`).toEqual([]);
}

/** The report a run wrote: a run of some of the suite writes beside the full run's. */
const report = (dir: string) => {
  const written = ['partial', '.'].map((d) => join(dir, 'reports', d, 'conformance.json')).find(existsSync);
  return JSON.parse(readFileSync(written ?? join(dir, 'reports', 'conformance.json'), 'utf8')) as Report;
};

test.describe('the nightly against the twin of the real gateway @AUTH-07 @TLS-01 @HTTP-04', () => {
  test.setTimeout(240_000);

  test('the whole live suite, every behaviour on: nothing fails, each way is named, and no key or token ever crosses plain HTTP', async () => {
    const log: RequestLogEntry[] = [];
    let published = 0;
    // A feed as busy as the real one (about 1,000 changes a day), so its pages fill.
    const mock = await createMock({
      seed: 1,
      as: 'ft-gateway',
      publishPerDay: 1000,
      // The backend restarts in the middle of the run, for five seconds: waited out, never red.
      outage: { after: 300, seconds: 5 },
      onRequest: (entry) => {
        log.push(entry);
        if (!entry.path.startsWith('/content/notifications') || Date.now() - published < PUBLISH_EVERY_MS)
          return;
        published = Date.now();
        mock.publish([{ type: 'CREATE', kind: 'Article' }]);
      },
    });
    mock.state.allowKey(KEY);
    // A burst in one millisecond as the run starts, as the real feed has: every page of the last
    // hour (the samples' since) reads its changes, in the order the twin gives a millisecond's.
    // Each in its own millisecond by stepping the twin's clock, not by waiting on the wall's.
    for (let i = 0; i < SPREAD; i++) {
      mock.publish([{ type: 'CREATE', kind: 'Article' }]);
      mock.advance(1);
    }
    mock.publish(Array.from({ length: BURST }, () => ({ type: 'CREATE', kind: 'Article' })));
    const dir = scratchFolder('live-twin');
    try {
      const run = await runLive({
        dir,
        // No throwaway key: nothing at all may reach plain HTTP with a credential.
        env: { ...liveEnvFor(mock), CLM_API_KEY: KEY, CLM_PLAIN_HTTP_KEY: '', CLM_RATE_LIMIT: '1000' },
        timeoutMs: 200_000,
      });
      const written = report(dir);
      const { verdict, incomplete, rows } = written;
      expect([0, 3], run.stdout.slice(-4000)).toContain(run.status);
      expect(rows.filter((r) => r.verdict === 'fail').map((r) => r.rule.id)).toEqual([]);
      if (verdict !== 'pass') {
        expect(verdict).toBe('incomplete');
        for (const reason of incomplete)
          expect(reason.length, 'an incomplete run names why').toBeGreaterThan(10);
      }
      expectNamed(written);
      expectMet(mock);
      // The backend's restart was waited out, and the report says when.
      expect(written.outages.filter((o) => o.waitedOut).length, 'outages waited out').toBeGreaterThan(0);
      // Every image request but those that leave it out on purpose names the calling system.
      const images = log.filter((e) => e.path.startsWith('/__origami/service/image/'));
      expect(images.filter((e) => /[?&]source=/.test(e.path)).length).toBeGreaterThan(images.length * 0.9);
      // The twin links over plain HTTP everywhere, and the suite followed its links over HTTPS.
      const plain = log.filter((e) => e.scheme === 'http');
      expect(plain.length, 'the TLS-01 checks reached plain HTTP').toBeGreaterThan(0);
      for (const entry of plain) expect(entry.credentials, `${entry.method} ${entry.path}`).toEqual([]);
      expect(log.filter((e) => e.scheme === 'https').length).toBeGreaterThan(200);
      expect(secretsIn(run, { key: KEY })).toEqual([]);
    } finally {
      await mock.close();
    }
  });
});
