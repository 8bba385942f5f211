import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Redactor } from '../../lib/client/redact.ts';
import { crossNightGaps, keptLink, refOf, type Change } from '../../lib/paging/nights.ts';
import { HISTORY_FILE, readHistory } from '../../lib/report/history.ts';
import { trendHtml } from '../../lib/report/trend.ts';
import { liveEnvFor } from '../../mock/live-env.ts';
import { createMock } from '../../mock/server.ts';
import { runLive, type NestedRun } from './support/nested-run.ts';

/** The one test of the nightly check: two nights of it, seconds apart, take seconds each. */
const GREP = 'the change feed across nights';

interface Finding {
  title: string;
  rules: string[];
}

/** The mock's wall clock runs this many times as fast: its 1,000 changes a day come some 7 a second. */
const SPEED = 600;

/**
 * Two live runs, a night apart as far as the feed can tell, against one mock that publishes as time
 * passes, sharing one reports folder as a nightly's cache does.
 */
async function twoNights(faults: string[] = []) {
  const began = Date.now();
  const wall = () => began + (Date.now() - began) * SPEED;
  const mock = await createMock({ seed: 1, publishPerDay: 1_000, wall, faults });
  const dir = mkdtempSync(join(tmpdir(), 'clm-nights-'));
  const key = mock.state.examples().key;
  try {
    const env = { ...liveEnvFor(mock), CLM_RATE_LIMIT: '50', CLM_RUN_TIMEOUT: '30' };
    const night = () => runLive({ dir, args: ['-g', GREP], env, timeoutMs: 60_000 });
    const first = await night();
    // Long enough for a kept link to count as kept, and for changes to be published meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const second = await night();
    const reports = join(dir, 'reports');
    // A title filter may make the run a part of the suite, whose reports go to partial/.
    const written = ['partial', '.'].map((d) => join(reports, d, 'conformance.json')).find(existsSync)!;
    const report = JSON.parse(readFileSync(written, 'utf8')) as {
      findings: Finding[];
      rows: { rule: { id: string }; verdict: string }[];
    };
    return {
      first,
      second,
      report,
      key,
      historyText: readFileSync(join(reports, HISTORY_FILE), 'utf8'),
      history: readHistory(join(reports, HISTORY_FILE)),
    };
  } finally {
    await mock.close();
  }
}

const output = (run: NestedRun) => `${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`;

test.describe('the feed across nights @NOTIF-11', () => {
  test.describe.configure({ mode: 'parallel' });
  test.setTimeout(150_000);

  test('the second night follows the link the first kept and finds the same changes as a fresh since', async () => {
    const { first, second, report, key, history, historyText } = await twoNights();
    expect(first.status, output(first)).toBe(0);
    expect(second.status, output(second)).toBe(0);
    expect(report.rows.find((r) => r.rule.id === 'NOTIF-11')?.verdict).toBe('pass');
    const nights = history.filter((r) => r.feed);
    expect(nights).toHaveLength(2);
    expect(nights[0]!.feed!.check).toMatch(/^not run: first night/);
    expect(nights[1]!.feed).toMatchObject({ check: 'checked', gaps: [] });
    expect(nights[1]!.feed!.delivered, 'changes published between the nights').toBeGreaterThan(0);
    expect(nights[1]!.feed!.next).not.toBe(nights[0]!.feed!.next);
    expect(historyText.includes(key), 'the key in the history').toBe(false);
    const page = trendHtml(history, { assets: { js: '', css: '' } });
    expect(page).toContain('id="feed-nights"');
  });

  test('a kept link that skips a change fails the second night with a finding that names the change', async () => {
    const { second, report, history } = await twoNights(['kept-next-skips-change']);
    expect(second.status, output(second)).toBe(1);
    const gaps = history.at(-1)!.feed!.gaps;
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatch(
      /^skipped: (CREATE|UPDATE|DELETE) http:\/\/www\.ft\.com\/thing\/[0-9a-f-]{36} at \S+ \(tid_\w+\) came from a fresh since/,
    );
    const named = /thing\/([0-9a-f-]{36}) at (\S+) \((tid_\w+)\)/.exec(gaps[0]!)!;
    const finding = report.findings.find((f) => f.rules.includes('NOTIF-11'));
    expect(finding?.title).toContain(named[3]);
    expect(second.stdout).toContain(named[1]);
    test.info().annotations.push({ type: 'finding', description: gaps[0] });
    const page = trendHtml(history, { assets: { js: '', css: '' } });
    expect(page).toContain(named[3]);
  });
});

test.describe('the feed across nights @NOTIF-11', () => {
  test.describe.configure({ mode: 'parallel' });
  test.setTimeout(150_000);

  test('a kept link loses any key in its query and every secret', () => {
    const redactor = new Redactor([{ value: 'secret-key-123', name: 'CLM_API_KEY' }]);
    expect(
      keptLink(
        'https://svc.example/content/notifications?since=2026-11-24T10:00:00.000Z' +
          '&page=abc&APIKEY=k1&x=secret-key-123',
        redactor,
      ),
    ).toBe(
      'https://svc.example/content/notifications?since=2026-11-24T10:00:00.000Z&page=abc&x=$CLM_API_KEY',
    );
  });

  test('a change the kept link repeats, from the night before or twice, is named; one newer than its walk is not judged', () => {
    const change = (i: number): Change => ({
      id: `http://www.ft.com/thing/0000000${i}-0000-4000-8000-000000000000`,
      type: 'http://www.ft.com/thing/ThingChangeType/UPDATE',
      apiUrl: `https://svc.example/content/0000000${i}-0000-4000-8000-000000000000`,
      lastModified: `2026-11-24T10:00:0${i}.000Z`,
      publishReference: `tid_${i}`,
    });
    const night = {
      at: '2026-11-24T10:00:01.500Z',
      next: 'https://svc.example/content/notifications?since=x&page=y',
      last: refOf(change(1)),
      since: '2026-11-24T09:00:00.000Z',
      delivered: 1,
      check: 'checked',
      gaps: [],
    };
    const fresh = [change(1), change(2), change(3), change(4)];
    expect(crossNightGaps(night, [change(2), change(3)], fresh, Date.now())).toEqual([]);
    expect(crossNightGaps(night, [change(1), change(2), change(2), change(3)], fresh, Date.now())).toEqual([
      expect.stringMatching(
        /^repeated: UPDATE \S+01-\S+ at 2026-11-24T10:00:01.000Z \(tid_1\), delivered by the run of/,
      ),
      expect.stringMatching(/^repeated: UPDATE \S+02-\S+ at \S+ \(tid_2\) came twice from the kept link$/),
    ]);
    expect(crossNightGaps(night, [change(3)], fresh, Date.now())).toEqual([
      expect.stringMatching(
        /^skipped: UPDATE \S+02-\S+ at 2026-11-24T10:00:02.000Z \(tid_2\) came from a fresh since/,
      ),
    ]);
  });
});
