import { expect, test } from '@playwright/test';
import { loadContract, loadRules } from '../../lib/contract/index.ts';
import { operationNotes } from '../../lib/docs/notes.ts';
import {
  notPassingText,
  stripHtml,
  verification,
  verifiedText,
  type Verified,
} from '../../lib/docs/verified.ts';
import { docsIndex } from '../../lib/report/docs-index.ts';
import type { HistoryRecord } from '../../lib/report/history.ts';
import { buildReport, type RunMeta, type TestRecord } from '../../lib/report/model.ts';
import { META } from './support/report-meta.ts';

const contract = await loadContract();
const PAGES = { main: 'main.html', images: 'images.html' };
const LIVE: Partial<RunMeta> = {
  targetKind: 'live',
  baseUrl: 'https://api.example.com',
  target: 'https://api.example.com',
  endedAt: '2026-11-27T02:40:00.000Z',
};

/** A night in which NOTIF-06 failed and NOTIF-01 passed. */
function night(meta: Partial<RunMeta>) {
  const records: TestRecord[] = [
    { id: 'a', title: 'a page of at most 200', file: 'f', rules: ['NOTIF-06'], outcome: 'failed' },
    { id: 'b', title: 'the first page', file: 'f', rules: ['NOTIF-01'], outcome: 'passed' },
  ];
  return buildReport(records, loadRules(), contract, {
    target: 'live',
    seed: '42',
    meta: { ...META, ...meta },
  });
}

/** Earlier nights: NOTIF-06 passed until the 24th, failed from the 25th. */
const history: HistoryRecord[] = [22, 23, 24, 25, 26].map((d) => ({
  at: `2026-11-${d}T02:40:00.000Z`,
  commit: null,
  targetKind: 'live',
  baseUrl: 'https://api.example.com',
  contract: 'h',
  faults: [],
  verdict: d < 25 ? 'pass' : 'fail',
  rules: { 'NOTIF-01': 'pass', 'NOTIF-06': d < 25 ? 'pass' : 'fail' },
  findings: [],
  drift: [],
  latency: [],
  requests: 10,
  complete: true,
}));

test.describe('what production was verified to do', () => {
  test('a full clean night against production: the date, the rules that pass, the nights, since when a rule fails', () => {
    const v = verification(night(LIVE), history) as Verified;
    expect(verifiedText(v, ['NOTIF-01', 'NOTIF-06'])).toBe(
      'Verified against production on 2026-11-27: 1 of 2 rules pass',
    );
    expect(v.nights.map((n) => n.at.slice(8, 10))).toEqual(['22', '23', '24', '25', '26', '27']);
    expect(notPassingText(v, 'NOTIF-06')).toBe('fail since 2026-11-25');
    const found = { ...v, findings: [{ rules: ['NOTIF-06'], title: 'a page of 201 changes' }] };
    expect(notPassingText(found, 'NOTIF-06')).toBe('fail since 2026-11-25: a page of 201 changes');
    expect(stripHtml(v, 'NOTIF-06')).toContain(
      'aria-label="NOTIF-06 over the last 6 night(s), 2026-11-22 to 2026-11-27: 3 pass, 3 fail"',
    );
    const index = docsIndex(contract, PAGES, night(LIVE), { verification: v });
    expect(index).toContain('Verified against production on 2026-11-27');
    expect(index).toContain('NOTIF-06</a>: fail since 2026-11-25');
    const notes = operationNotes(contract, v);
    const feed = [...contract.operations.values()].find((op) => op.rules.includes('NOTIF-06'))!;
    expect(notes[feed.id]).toContain('NOTIF-06: fail since 2026-11-25');
    expect(notes[feed.id]).toContain('[NOTIF-06](rules/NOTIF-06.html) fail');
  });

  test('only the last 30 nights show, and only full clean ones against the same service', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      ...history[0]!,
      at: new Date(Date.UTC(2026, 9, 1 + i)).toISOString(),
    }));
    const others = [
      { ...history[0]!, at: '2026-11-26T12:00:00.000Z', faults: ['page-of-201'] },
      { ...history[0]!, at: '2026-11-26T13:00:00.000Z', complete: false },
      { ...history[0]!, at: '2026-11-26T14:00:00.000Z', baseUrl: 'https://staging.example.com' },
      { ...history[0]!, at: '2026-11-26T15:00:00.000Z', targetKind: 'mock' as const },
    ];
    const v = verification(night(LIVE), [...many, ...others]) as Verified;
    expect(v.nights).toHaveLength(30);
    expect(v.nights.some((n) => n.at.startsWith('2026-11-26'))).toBe(false);
  });

  test('never from a run against the mock, a faulted or partial run, or none: and says so', () => {
    expect(verification(night({}), history)).toEqual({
      why: 'the last full run was against the bundled mock, one per worker (2), not production',
    });
    expect(verification(night({ ...LIVE, faults: ['page-of-201'] }), history)).toEqual({
      why: 'the last run had faults switched on (page-of-201)',
    });
    expect(verification(night({ ...LIVE, partial: ['shard 1 of 4'] }), history)).toEqual({
      why: 'the last run was partial (shard 1 of 4)',
    });
    const none = verification(undefined, history);
    expect(docsIndex(contract, PAGES, undefined, { verification: none })).toContain(
      'Not verified against production: there is no conformance report yet.',
    );
  });
});
