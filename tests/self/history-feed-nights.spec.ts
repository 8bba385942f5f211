import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Redactor } from '../../lib/client/redact.ts';
import { crossNight, keptLink, nightOf, type Change } from '../../lib/paging/nights.ts';
import { HISTORY_FILE, readHistory } from '../../lib/report/history.ts';
import { trendHtml } from '../../lib/report/trend.ts';
import { liveEnvFor } from '../../mock/live-env.ts';
import { createMock, type MockOptions } from '../../mock/server.ts';
import { runLive, type NestedRun } from './support/nested-run.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/** The one test of the nightly check, and its file (the nested run loads no other): two nights of it take seconds each. */
const GREP = 'the change feed across nights';
const FILE = 'tests/conformance/notifications-nightly.spec.ts';

interface Finding {
  title: string;
  rules: string[];
}

/**
 * How far the feed's time moves between the nights: some 10 of its 1,000 changes a day are published
 * meanwhile. Within a night it stands still, so what a night sees never depends on how fast the
 * machine runs it.
 */
const BETWEEN_NIGHTS_MS = 15 * 60_000;
/**
 * How long before the second night the test publishes an Article itself: past the twin's cache delay
 * of the newest seconds. The feed's own changes between the nights depend on the hour the test starts
 * in, and the twin lists Articles only: some quarters of an hour bring none, and a kept link then
 * delivers nothing, whatever the service does with it.
 */
const PUBLISHED_BEFORE_NIGHT_MS = 60_000;

/**
 * Two live runs, a night apart as far as the feed can tell, against one mock that publishes as time
 * passes, sharing one reports folder as a nightly's cache does.
 */
async function twoNights(faults: string[] = [], twin: Pick<MockOptions, 'as' | 'without'> = {}) {
  const began = Date.now();
  let moved = 0;
  const wall = () => began + moved;
  // A twin's backend restarts in the first night, for two seconds: waited out, the nights still decide.
  const mock = await createMock({
    seed: 1,
    publishPerDay: 1_000,
    wall,
    faults,
    outage: { after: 20, seconds: 2 },
    ...twin,
  });
  const dir = scratchFolder('nights');
  const key = mock.state.examples().key;
  try {
    const env = { ...liveEnvFor(mock), CLM_RATE_LIMIT: '1000', CLM_RUN_TIMEOUT: '30' };
    const night = () => runLive({ dir, args: [FILE, '-g', GREP], env, timeoutMs: 60_000 });
    const first = await night();
    moved += BETWEEN_NIGHTS_MS - PUBLISHED_BEFORE_NIGHT_MS;
    mock.state.publish([{ type: 'CREATE', kind: 'Article' }]);
    moved += PUBLISHED_BEFORE_NIGHT_MS;
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
    expect(gaps[0]).toMatch(/^skipped: (CREATE|UPDATE|DELETE) [0-9a-f-]{36} came from a fresh since/);
    const named = /^skipped: \w+ ([0-9a-f-]{36})/.exec(gaps[0]!)!;
    const finding = report.findings.find((f) => f.rules.includes('NOTIF-11'));
    expect(finding?.title).toContain(named[1]);
    expect(second.stdout).toContain(named[1]);
    test.info().annotations.push({ type: 'finding', description: gaps[0] });
    const page = trendHtml(history, { assets: { js: '', css: '' } });
    expect(page).toContain(named[1]);
  });
});

/** A change of item `i` (a kind other than UPDATE given after a colon: `2:DELETE`), as each night may write it. */
const change = (spec: number | string, options: { timed?: boolean; https?: boolean } = {}): Change => {
  const [i = '', type = 'UPDATE'] = String(spec).split(':');
  const scheme = options.https ? 'https' : 'http';
  return {
    id: `${scheme}://www.ft.com/thing/0000000${i}-0000-4000-8000-000000000000`,
    type: `${scheme}://www.ft.com/thing/ThingChangeType/${type}`,
    apiUrl: `${scheme}://svc.example/content/0000000${i}-0000-4000-8000-000000000000`,
    ...(options.timed ? { lastModified: `2026-11-24T10:00:0${i}.000Z`, publishReference: `tid_${i}` } : {}),
  };
};
/** Pages of changes: `[[0, 1], [2]]`, each written as `options` say. */
const pagesOf = (lists: (number | string)[][], options: { timed?: boolean; https?: boolean } = {}) =>
  lists.map((items) => ({ notifications: items.map((i) => change(i, options)), links: [] }));
const nightAfter = (lists: (number | string)[][], options: { timed?: boolean } = {}) => ({
  ...nightOf(
    {
      since: '2026-11-24T09:00:00.000Z',
      next: 'https://svc.example/n?page=y',
      pages: pagesOf(lists, options),
    },
    new Redactor([]),
  ),
  at: '2026-11-24T10:00:01.500Z',
  delivered: 1,
  check: 'checked',
  gaps: [],
});

test.describe('the feed across nights: the kept link, and the changes it skips or repeats @NOTIF-11', () => {
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

  for (const timed of [true, false])
    test(`a change the kept link skips or repeats is named, one again where it starts is drift, ${timed ? 'with' : 'without'} times and references`, () => {
      const night = nightAfter([[0, 1]], { timed });
      const fresh = pagesOf(
        [
          [0, 1, 2],
          [3, 4],
        ],
        { timed },
      );
      const kept = (...lists: (number | string)[][]) => crossNight(night, pagesOf(lists, { timed }), fresh);
      expect(kept([2, 3])).toEqual({ gaps: [], repeats: 0 });
      expect(kept([1, 2, 3])).toEqual({ gaps: [], repeats: 1 });
      expect(kept([3]).gaps).toEqual([
        expect.stringMatching(/^skipped: UPDATE 00000002-\S+ came from a fresh since/),
      ]);
      expect(kept([2, 3, 2]).gaps).toEqual([
        expect.stringMatching(
          /^repeated: UPDATE 00000002-\S+, delivered before, came again from the kept link$/,
        ),
      ]);
      expect(kept([3, 2]).gaps[0]).toMatch(/^out of order: UPDATE 00000003-/);
      // A repeat inside the kept link's walk is no repeat the feed may make.
      expect(kept([2, 2, 3]).gaps).toEqual([expect.stringMatching(/^repeated: UPDATE 00000002-/)]);
    });

  test('a night that wrote its changes another way (https ids, times it no longer gets) is compared all the same', () => {
    const night = nightAfter([[0, 1]], { timed: true });
    const fresh = pagesOf([[0, 1, 2, 3]], { https: true });
    expect(crossNight(night, pagesOf([[2, 3]], { https: true }), fresh)).toEqual({ gaps: [], repeats: 0 });
    expect(crossNight(night, pagesOf([[3]], { https: true }), fresh).gaps).toHaveLength(1);
  });

  test('one notification per item per window: a page that lists only the latest event of an item is no gap, a lost item is', () => {
    // Item 1 changed again (1:DELETE) after the night: a fresh page covering both lists only the delete.
    const night = nightAfter([[0, 1]]);
    const fresh = pagesOf([[0, 2, '1:DELETE', 3]]);
    expect(crossNight(night, pagesOf([[2, '1:DELETE', 3]]), fresh)).toEqual({ gaps: [], repeats: 0 });
    // The kept link's pages list both events of item 4 where the fresh page merged them.
    const merged = pagesOf([[0, 1, 2, '4:DELETE']]);
    expect(crossNight(night, pagesOf([[2, 4], ['4:DELETE']]), merged).gaps).toEqual([]);
    // An item whose only change is lost is still a gap, merged pages or not.
    expect(crossNight(night, pagesOf([['1:DELETE', 3]]), fresh).gaps).toEqual([
      expect.stringMatching(/^skipped: UPDATE 00000002-/),
    ]);
    // An earlier event excused only where the item changes again: one listed once must match.
    expect(crossNight(night, pagesOf([[3, 2]]), pagesOf([[0, 1, 2, 3]])).gaps).toHaveLength(1);
  });

  test("a fresh walk that lists none of the night's last changes leaves the check undecided, saying why", () => {
    const night = nightAfter([[0, 1]]);
    expect(crossNight(night, pagesOf([[2]]), pagesOf([[5, 6, 2]])).undecided).toMatch(
      /lists none of the last 2 changes/,
    );
  });
});

test.describe('the feed across nights, as an ordinary key sees it @NOTIF-11', () => {
  test.describe.configure({ mode: 'parallel' });
  test.setTimeout(150_000);

  test('against the twin of the real gateway (type, id and apiUrl only, plain-HTTP links, at least once), the check runs and holds', async () => {
    const { second, history } = await twoNights([], { as: 'ft-gateway' });
    expect(second.status, output(second)).toBe(0);
    expect(history.filter((r) => r.feed).at(-1)!.feed).toMatchObject({ check: 'checked', gaps: [] });
  });

  test('against the twin, a kept link that skips a change fails the second night, the change named without its time', async () => {
    // The fault marks an empty page's page token, which the twin's since-only link would drop.
    const { second, history } = await twoNights(['kept-next-skips-change'], {
      as: 'ft-gateway',
      without: ['empty-next-since-only'],
    });
    expect(second.status, output(second)).toBe(1);
    expect(history.at(-1)!.feed!.gaps).toEqual([
      expect.stringMatching(/^skipped: (CREATE|UPDATE|DELETE) [0-9a-f-]{36} came from a fresh since/),
    ]);
  });
});
