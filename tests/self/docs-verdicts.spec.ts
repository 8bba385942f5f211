import { expect, test } from '@playwright/test';
import { loadContract, loadRules } from '../../lib/contract/index.ts';
import { docsIndex } from '../../lib/report/docs-index.ts';
import { buildReport, type RunMeta, type TestRecord } from '../../lib/report/model.ts';
import { META } from './support/report-meta.ts';

const contract = await loadContract();
const PAGES = { main: 'main.html', images: 'images.html' };

/** A run in which NOTIF-06 failed and NOTIF-01 passed, with the metadata given. */
function run(meta: Partial<RunMeta>, extra: TestRecord[] = []) {
  const records: TestRecord[] = [
    { id: 'a', title: 'a page of at most 200', file: 'f', rules: ['NOTIF-06'], outcome: 'failed' },
    { id: 'b', title: 'the first page', file: 'f', rules: ['NOTIF-01'], outcome: 'passed' },
    ...extra,
  ];
  return buildReport(records, loadRules(), contract, {
    target: 'mock',
    seed: '42',
    meta: { ...META, ...meta },
  });
}

const shown = (index: string) => [...index.matchAll(/<b class="[\w-]+">([\w ]+)<\/b>/g)].map((m) => m[1]);

// The build itself after a faulted run: docs-browser.spec.ts, whose pages come from that build.
test.describe('the docs publish verdicts of clean full runs only', () => {
  test('a run with a fault switched on: no verdicts, and the index says why', () => {
    const index = docsIndex(contract, PAGES, run({ faults: ['page-of-201'] }));
    expect(shown(index)).toEqual([]);
    expect(index).toContain('No verdicts: the last run had faults switched on (page-of-201).');
  });

  test('a partial run or one that did not finish: no verdicts, and why', () => {
    const partial = docsIndex(contract, PAGES, run({ partial: ['shard 1 of 4'] }));
    expect(shown(partial)).toEqual([]);
    expect(partial).toContain('No verdicts: the last run was partial (shard 1 of 4).');
    const stopped = run({}, [{ id: 'c', title: 'c', file: 'f', rules: ['LIC-01'], outcome: 'not run' }]);
    const unfinished = docsIndex(contract, PAGES, stopped);
    expect(shown(unfinished)).toEqual([]);
    expect(unfinished).toContain('No verdicts: the last run did not finish (1 test(s) not run');
  });

  test('no report, or one that does not say what it ran: no verdicts, and why', () => {
    expect(docsIndex(contract, PAGES)).toContain('No verdicts: there is no conformance report yet.');
    const { run: counted, ...older } = run({});
    const old = { ...older, run: { ...counted, suite: undefined } } as unknown as Parameters<
      typeof docsIndex
    >[2];
    expect(docsIndex(contract, PAGES, old)).toContain('an older suite wrote it');
  });

  test('a clean full run: every verdict, with the run’s target, date and suite version', () => {
    const index = docsIndex(
      contract,
      PAGES,
      run({
        target: 'https://api.example.com',
        targetKind: 'live',
        suiteVersion: '1.4.0',
        suiteCommit: 'a1b2c3',
      }),
    );
    expect(index).toContain('NOTIF-06 <b class="fail">fail</b>');
    expect(index).toContain('NOTIF-01 <b class="pass">pass</b>');
    expect(index).toContain(
      `Verdicts from the full conformance run of ${META.endedAt} against https://api.example.com, ` +
        'with suite 1.4.0 (commit a1b2c3).',
    );
  });
});
