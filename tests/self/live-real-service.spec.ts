import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { createMock } from '../../mock/server.ts';
import { REAL_SERVICE_WAYS } from './servers/real-service-ways.ts';
import { startTolerantProxy } from './servers/tolerant-proxy.ts';
import { envThroughProxy, runLive } from './support/nested-run.ts';

/** The tests whose live reading the real service's ways change. */
const FILES = ['images', 'images-limits', 'content', 'links', 'flows'].map(
  (name) => `tests/conformance/${name}.spec.ts`,
);

interface Results {
  suites: Results[];
  specs?: { tests: { annotations: { type: string; description?: string }[] }[] }[];
}

/** Every annotation of a Playwright JSON report, as `type: description`. */
function annotations(results: Results): string[] {
  return [
    ...(results.specs ?? []).flatMap((spec) =>
      spec.tests.flatMap((t) => t.annotations.map((a) => `${a.type}: ${a.description ?? ''}`)),
    ),
    ...(results.suites ?? []).flatMap(annotations),
  ];
}

test.describe('a live run against the real service as FACTS.md describes it', () => {
  test.setTimeout(240_000);

  test('stays green on HTML image errors, a required source, unbounded sides, a hit without apiUrl and {"error"} refusals, and says what it allowed', async () => {
    const mock = await createMock({ seed: 1 });
    const proxy = await startTolerantProxy({ upstream: mock, variations: REAL_SERVICE_WAYS });
    const dir = mkdtempSync(join(tmpdir(), 'clm-live-real-'));
    try {
      const run = await runLive({
        dir,
        args: FILES,
        env: { ...envThroughProxy(mock, proxy), CLM_RATE_LIMIT: '1000' },
        timeoutMs: 200_000,
      });
      expect(run.status, run.stdout.slice(-4000)).toBe(0);
      const reports = join(dir, 'reports');
      const conformance = ['partial', '.'].map((d) => join(reports, d, 'conformance.json')).find(existsSync)!;
      const { verdict, drift } = JSON.parse(readFileSync(conformance, 'utf8')) as {
        verdict: string;
        drift: { operation: string; status: number; field: string; note?: string }[];
      };
      expect(verdict).not.toBe('fail');
      const html = drift.filter((d) => d.field === '(body)' && d.note?.includes('text/html'));
      expect(html.map((d) => `${d.operation} ${d.status}`)).toEqual(
        expect.arrayContaining(['getImageRaw 400', 'getImageRaw 404']),
      );
      const notes = annotations(JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as Results);
      expect(
        notes.some((n) => /^note: not followed: .*has no apiUrl/.test(n)),
        notes.join('\n'),
      ).toBe(true);
      expect(notes.some((n) => /^drift: the text\/html 400 for scheme does not name it/.test(n))).toBe(true);
      // Every image request but the one that left it out on purpose named the suite.
      const images = proxy.requests.log.filter((r) => r.url.startsWith('/__origami/service/image/'));
      const bare = images.filter((r) => !/[?&]source=/.test(r.url));
      expect(images.length).toBeGreaterThan(20);
      expect(bare.map((r) => r.url)).toEqual([expect.stringMatching(/width=50$/)]);
    } finally {
      await proxy.close();
      await mock.close();
    }
  });
});
