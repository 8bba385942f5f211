import { expect, test } from '@playwright/test';
import { loadContract, loadRules } from '../../lib/contract/index.ts';
import { attribute } from '../../lib/report/attribution.ts';
import { buildReport, verdictOf, type TestRecord } from '../../lib/report/model.ts';
import { META } from './support/report-meta.ts';
import { docsIndex } from '../../lib/report/docs-index.ts';
import { conformanceMarkdown } from '../../lib/report/render.ts';
import { coverageMarkdown } from '../../lib/report/render-coverage.ts';

test.describe('the conformance report', () => {
  test('decides a rule: any failure fails it, else any pass passes it, else skipped; no test is not covered', () => {
    expect(verdictOf([{ outcome: 'passed' }, { outcome: 'failed' }])).toBe('fail');
    expect(verdictOf([{ outcome: 'passed' }, { outcome: 'skipped' }])).toBe('pass');
    expect(verdictOf([{ outcome: 'skipped' }])).toBe('skipped');
    expect(verdictOf([])).toBe('not covered');
  });

  test('lists every rule, the tests that decided it, skip reasons, coverage and drift', async () => {
    const records: TestRecord[] = [
      {
        id: 'x640',
        title: 'a',
        file: 'f',
        rules: ['NOTIF-01'],
        outcome: 'passed',
        observations: {
          calls: [{ operation: 'listNotifications', status: 400 }],
          drift: [{ operation: 'listNotifications', status: 400, field: 'code' }],
          retries: [],
          requests: 1,
          findings: [],
          exchanges: [],
          deprecations: [],
        },
      },
      {
        id: 't1',
        title: 'b',
        file: 'f',
        rules: ['NOTIF-10'],
        outcome: 'skipped',
        skipReason: 'needs the mock',
      },
      { id: 't2', title: 'c', file: 'f', rules: ['LIC-01'], outcome: 'failed' },
    ];
    const report = buildReport(records, loadRules(), await loadContract(), {
      target: 'mock',
      seed: '42',
      meta: META,
    });
    const verdict = (id: string) => report.rows.find((r) => r.rule.id === id)!.verdict;
    expect(verdict('NOTIF-01')).toBe('pass');
    expect(verdict('NOTIF-10')).toBe('skipped');
    expect(verdict('LIC-01')).toBe('fail');
    expect(verdict('TE-01')).toBe('not covered');
    expect(
      report.coverage.documented.find((d) => d.operation === 'listNotifications' && d.status === '400')!.seen,
    ).toBe(true);
    expect(report.drift).toEqual([{ operation: 'listNotifications', status: 400, field: 'code', count: 1 }]);
    const markdown = conformanceMarkdown(report);
    expect(markdown).toContain('| NOTIF-10 | skipped |');
    expect(markdown).toContain('needs the mock');
    expect(markdown).toContain('- **Seed**: 42 (fast-check)');
    expect(markdown).toContain('- **Suite**: 0.1.0 (commit abc)');
    expect(markdown).toContain('- **Contract**: 1 (hash h)');
    expect(coverageMarkdown(report)).toContain('| listNotifications | 400 | yes |');
    const index = docsIndex(await loadContract(), { main: 'main.html', images: 'images.html' }, report);
    expect(index).toContain('NOTIF-01 <b class="pass">pass</b>');
    expect(index).toContain('LIC-01 <b class="fail">fail</b>');
  });
});

const observations = (findings: { check: string; title: string; rules: string[] }[]) => ({
  calls: [],
  drift: [],
  retries: [],
  requests: 1,
  findings,
  exchanges: [],
  deprecations: [],
});

test.describe('the run verdict', () => {
  test("a failed automatic check fails its own rule; the test's own rules are blocked by it, not decided", async () => {
    const serverError = { check: 'noServerError', title: 'Server error', rules: ['HTTP-04'] };
    const records: TestRecord[] = [
      {
        id: 'x640',
        title: 'walk',
        file: 'f',
        rules: ['NOTIF-09'],
        outcome: 'failed',
        observations: observations([serverError]),
        attribution: attribute(['NOTIF-09'], 'ApiCheckError: Server error [HTTP-04]', [serverError]),
      },
      {
        id: 'x640',
        title: 'ok',
        file: 'f',
        rules: ['HTTP-01'],
        outcome: 'passed',
        observations: observations([{ check: 'contentTypeDocumented', title: 'x', rules: ['TE-01'] }]),
      },
    ];
    const report = buildReport(records, loadRules(), await loadContract(), {
      target: 'live',
      seed: '1',
      meta: META,
    });
    const verdict = (id: string) => report.rows.find((r) => r.rule.id === id)!.verdict;
    expect(verdict('NOTIF-09')).toBe('blocked');
    expect(report.rows.find((r) => r.rule.id === 'NOTIF-09')!.blockedBy).toEqual(['HTTP-04']);
    expect(verdict('HTTP-04')).toBe('fail');
    expect(verdict('TE-01'), 'a passing test adds no rule').toBe('not covered');
    expect(report.verdict).toBe('fail');
  });
});

test.describe('the run verdict: a run cut short by its budget', () => {
  test('a run stopped by its budget is incomplete, never a failed rule, and says why', async () => {
    const records: TestRecord[] = [
      {
        id: 't3',
        title: 'a',
        file: 'f',
        rules: ['TE-01'],
        outcome: 'passed',
        observations: observations([]),
      },
      {
        id: 't4',
        title: 'b',
        file: 'f',
        rules: ['AUTH-01'],
        outcome: 'not run',
        skipReason: 'not run: budget spent',
      },
    ];
    const run = {
      requests: 40,
      budget: 40,
      perSecond: 4,
      stopped: 'budget spent: 40 requests sent',
      transportFailures: [],
    };
    const report = buildReport(records, loadRules(), await loadContract(), {
      target: 'live',
      seed: '1',
      run,
      meta: META,
    });
    expect(report.verdict).toBe('incomplete');
    expect(report.incomplete.join(' ')).toContain('budget spent');
    expect(report.rows.find((r) => r.rule.id === 'AUTH-01')!.verdict).toBe('not run');
    expect(report.rows.some((r) => r.verdict === 'fail')).toBe(false);
    const markdown = conformanceMarkdown(report);
    expect(markdown).toContain('Verdict: INCOMPLETE');
    expect(markdown).toContain('- **Requests**: 40 of a budget of 40');
    const clean = buildReport(records.slice(0, 1), loadRules(), await loadContract(), {
      target: 'live',
      seed: '1',
      meta: META,
    });
    expect(clean.verdict).toBe('pass');
  });
});

test.describe('deprecation signals in the report', () => {
  test('lists each deprecated operation with what it sent, or that it was not reached; never a failure', async () => {
    const observations = {
      calls: [{ operation: 'getPageV1', status: 200 }],
      drift: [],
      retries: [],
      requests: 1,
      findings: [],
      exchanges: [],
      deprecations: [
        { operation: 'getPageV1', deprecation: '@1483228800', sunset: 'Fri, 30 Jun 2017 23:59:59 GMT' },
      ],
      gone: [{ operation: 'listPagesV1', status: 410 }],
    };
    const report = buildReport(
      [{ id: 'd', title: 'page', file: 'f', rules: ['DEPR-01'], outcome: 'passed', observations }],
      loadRules(),
      await loadContract(),
      { target: 'live', seed: '1', meta: META },
    );
    const page = report.deprecations.find((d) => d.operation === 'getPageV1')!;
    expect(page).toEqual({
      operation: 'getPageV1',
      answers: 1,
      deprecation: ['@1483228800'],
      sunset: ['Fri, 30 Jun 2017 23:59:59 GMT'],
      link: ['absent'],
      gone: [],
    });
    expect(report.deprecations.find((d) => d.operation === 'listPagesV1')).toMatchObject({ gone: [410] });
    expect(report.deprecations.some((d) => d.operation === 'getLicence')).toBe(false);
    expect(report.verdict).toBe('pass');
    const markdown = conformanceMarkdown(report);
    expect(markdown).toContain(
      '| getPageV1 | 1 |  | @1483228800 (2017-01-01) | Fri, 30 Jun 2017 23:59:59 GMT | absent |',
    );
    expect(markdown).toContain('| listPagesV1 | 0 | gone (410) | not reached |');
  });
});
