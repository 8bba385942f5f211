import type { FullConfig } from '@playwright/test/reporter';
import { expect, test } from '@playwright/test';
import { loadContract, loadRules } from '../../lib/contract/index.ts';
import { contractLocation, errorAnnotations } from '../../lib/report/ci.ts';
import { attribute } from '../../lib/report/attribution.ts';
import {
  findingsOf,
  replayable,
  replayCommand,
  messageShape,
  sharesLine,
} from '../../lib/report/findings.ts';
import { buildReport, type FailureRecord, type TestRecord } from '../../lib/report/model.ts';
import { conformanceHtml } from '../../lib/report/render-html.ts';
import { conformanceMarkdown } from '../../lib/report/render.ts';
import { partialReasons } from '../../lib/report/run-meta.ts';
import { META } from './support/report-meta.ts';

const SCHEMA_FAILURE =
  'ApiCheckError: Body does not match the contract [LIC-01]\n' +
  '  Expected: required property seatLimit\n  Received: {"id":"6a1c…"}';

function failed(id: string, rules: string[], failure: Partial<FailureRecord>): TestRecord {
  return {
    id,
    title: `test ${id}`,
    file: 'tests/conformance/licence.spec.ts',
    rules,
    outcome: 'failed',
    failure: {
      message: SCHEMA_FAILURE,
      operation: 'getLicence',
      replay: `npx playwright test tests/conformance/licence.spec.ts:1 --project=mock`,
      location: 'tests/conformance/licence.spec.ts:1',
      ...failure,
    },
  };
}

/** A test failed by the check behind SCHEMA_FAILURE, attributed as the reporter attributes it. */
function failedCheck(id: string, rules: string[], failure: Partial<FailureRecord> = {}): TestRecord {
  const check = { check: 'bodyMatchesSchema', title: 'Body does not match the contract', rules: ['LIC-01'] };
  const record = failed(id, rules, failure);
  return {
    ...record,
    attribution: attribute(rules, record.failure!.message, [{ ...check, place: 'the body (required)' }]),
  };
}

test.describe('findings: one per defect', () => {
  test('failures of one check at one place are one finding of its rule, listing the tests it failed and blocked', () => {
    const records = [
      failedCheck('a', ['LIC-01']),
      failedCheck('b', ['LIC-03'], { message: SCHEMA_FAILURE.replace('6a1c', '77aa') }),
      failedCheck('c', ['LIC-08']),
      failed('d', ['NOTIF-01'], {
        operation: 'listNotifications',
        message: 'Error: expect(received).toBe(expected)\n\nExpected: 400\nReceived: 200',
      }),
      { id: 'e', title: 'passed', file: 'f', rules: ['TE-01'], outcome: 'passed' as const },
    ];
    const findings = findingsOf(records);
    expect(findings.map((f) => f.tests.length)).toEqual([3, 1]);
    expect(findings[0]!.rules).toEqual(['LIC-01']);
    expect(findings[0]!.title).toBe('LIC-01: Body does not match the contract');
    expect(findings[0]!.blocked).toEqual(['test b', 'test c']);
    expect(findings[1]!.expected).toBe('400');
    expect(findings[1]!.received).toBe('200');
    expect(findings[0]!.reportLink).toBe('html/index.html#?testId=a');
    expect(new Set(findings.map((f) => f.id)).size).toBe(2);
  });

  test('the same assertion on different operations, or with other words, stays apart', () => {
    const assertion = 'Error: expect(received).toBe(expected)\n\nExpected: 403\nReceived: 200';
    const findings = findingsOf([
      failed('a', ['LIC-07'], { message: assertion }),
      failed('b', ['TE-02'], { message: assertion, operation: 'listTrialExclusionIpAddresses' }),
      failed('c', ['LIC-07'], { message: assertion.replace('toBe', 'toEqual') }),
    ]);
    expect(findings).toHaveLength(3);
  });

  test('a message shape blanks what differs between requests', () => {
    expect(messageShape('id 7348edd8-0403-11de-845b-000077b07658 at https://x.test/a?b=1 got 404 "x"')).toBe(
      'id <id> at <url> got <n> "…"',
    );
  });
});

test.describe('replays', () => {
  test('a replay names the target, the faults, the seed and the path; an exchange points where a user can reach', () => {
    expect(
      replayCommand({
        location: 'tests/a.spec.ts:9',
        project: 'mock',
        faults: ['page-of-201'],
        seed: '7',
        path: '3:1',
      }),
    ).toBe(
      'MOCK_FAULTS=page-of-201 FC_SEED=7 FC_PATH=3:1 npx playwright test tests/a.spec.ts:9 --project=mock',
    );
    expect(
      replayCommand({
        location: 'tests/a.spec.ts:9',
        project: 'mock',
        faults: [],
        seed: '7',
        path: '3:1',
        replayPath: 'BBAAAIH+:qC',
      }),
    ).toBe(
      'FC_SEED=7 FC_PATH=3:1 FC_REPLAY_PATH=BBAAAIH+:qC npx playwright test tests/a.spec.ts:9 --project=mock',
    );
    expect(
      replayCommand({
        location: 'tests/a.spec.ts:9',
        project: 'mock',
        faults: [],
        title: "op: a client's (1) case",
      }),
    ).toBe(
      "npx playwright test tests/a.spec.ts:9 --project=mock -g '(^| )op: a client'\\''s \\(1\\) case( @|$)'",
    );
    // Tests made in a loop share a line: the line alone would replay them all.
    const at = (line: number) => ({ location: { file: 'a.spec.ts', line } });
    const [one, two, other] = [at(9), at(9), at(12)];
    expect([sharesLine(one, [one, two, other]), sharesLine(other, [one, two, other])]).toEqual([true, false]);
    expect(replayCommand({ location: 'tests/a.spec.ts:9', project: 'live', faults: [] })).toBe(
      'CLM_TARGET=live npx playwright test tests/a.spec.ts:9 --project=live',
    );
    const swapped = replayable(
      {
        method: 'GET',
        url: 'https://127.0.0.1:40001/licence/x',
        status: 200,
        curl: 'curl "https://127.0.0.1:40001/licence/x"',
        body: '{}',
      },
      { 'https://127.0.0.1:40001': 'https://127.0.0.1:8443' },
    );
    expect(swapped.curl).toBe('curl "https://127.0.0.1:8443/licence/x"');
    expect(swapped.url).toBe('https://127.0.0.1:8443/licence/x');
  });
});

test.describe('the report of a run with findings', () => {
  test('puts the verdict, the run and the findings first, and the passing rules last, folded', async () => {
    const records = [
      failed('a', ['LIC-01'], {}),
      { id: 'p', title: 'ips', file: 'f', rules: ['TE-01'], outcome: 'passed' as const },
    ];
    const report = buildReport(records, loadRules(), await loadContract(), {
      target: 'mock',
      seed: '1',
      meta: { ...META, faults: ['licence-without-seat-limit'] },
    });
    const html = conformanceHtml(report);
    const at = (text: string) => html.indexOf(text);
    expect(at('Verdict: FAIL')).toBeGreaterThan(0);
    expect(at('<b>Faults</b>: licence-without-seat-limit')).toBeGreaterThan(at('Verdict: FAIL'));
    expect(at('Findings (1)')).toBeGreaterThan(at('<b>Faults</b>:'));
    expect(at('Passing rules (1)')).toBeGreaterThan(at('Findings (1)'));
    expect(html).toMatch(/<details><summary><h2[^>]*>Passing rules/);
    // A finding's rule links its page in the docs.
    expect(html).toMatch(/<li><b><a href="docs\/rules\/LIC-\d{2}\.html">LIC-\d{2}<\/a><\/b>: /);
    expect(html).toContain(
      'data-copy="npx playwright test tests/conformance/licence.spec.ts:1 --project=mock"',
    );
    const markdown = conformanceMarkdown(report);
    expect(markdown.indexOf('## Findings (1)')).toBeLessThan(markdown.indexOf('## Passing rules'));
    expect(markdown).toContain('- **LIC-01**: ');
  });

  test('a partial run says so and is incomplete, never a pass', async () => {
    const report = buildReport(
      [{ id: 'p', title: 'ips', file: 'f', rules: ['TE-01'], outcome: 'passed' }],
      loadRules(),
      await loadContract(),
      { target: 'mock', seed: '1', meta: { ...META, partial: ['shard 1 of 4'] } },
    );
    expect(report.verdict).toBe('incomplete');
    expect(conformanceMarkdown(report)).toContain('PARTIAL (shard 1 of 4)');
  });
});

test.describe('what makes a run partial', () => {
  const config = (over: Partial<FullConfig>) =>
    ({ shard: null, grep: /.*/, grepInvert: null, ...over }) as FullConfig;
  const argv = (...args: string[]) => ['node', 'playwright', 'test', ...args];

  test('a shard, a title filter or files named; not a whole run with options', () => {
    expect(partialReasons(config({}), argv('--project=mock', '--workers', '2'))).toEqual([]);
    expect(partialReasons(config({ shard: { current: 2, total: 4 } }), argv())).toEqual(['shard 2 of 4']);
    expect(partialReasons(config({ grep: /@LIC-01/ }), argv('-g', '@LIC-01'))).toEqual([
      'tests filtered by title (/@LIC-01/)',
    ]);
    // The runner keeps `-g` out of the config: the command line says it.
    expect(partialReasons(config({}), argv('-g', '@LIC-01'))).toEqual([
      'tests filtered by title (/@LIC-01/)',
    ]);
    expect(partialReasons(config({}), argv('--grep=@TE'))).toEqual(['tests filtered by title (/@TE/)']);
    expect(partialReasons(config({}), argv('tests/conformance/licence.spec.ts'))).toEqual([
      'files named (tests/conformance/licence.spec.ts)',
    ]);
    expect(partialReasons(config({}), argv('--last-failed'))).toEqual(['selected with --last-failed']);
  });
});

test.describe('findings in CI', () => {
  test('an annotation points at the line of the operation in the contract, or of the rule', () => {
    expect(contractLocation({ operation: 'getLicence', rules: ['LIC-01'] })).toEqual({
      file: 'openapi/paths/licence_{licenceId}.yaml',
      line: 2,
    });
    const byRule = contractLocation({ rules: ['HTTP-04'] });
    expect(byRule.file).toBe('openapi/rules.yaml');
    expect(byRule.line).toBeGreaterThan(1);
  });

  test('one ::error line per finding, escaped for the workflow command', async () => {
    const report = buildReport([failed('a', ['LIC-01'], {})], loadRules(), await loadContract(), {
      target: 'mock',
      seed: '1',
      meta: META,
    });
    const [line, ...rest] = errorAnnotations(report);
    expect(rest).toEqual([]);
    expect(line).toMatch(
      /^::error file=openapi\/paths\/licence_\{licenceId\}\.yaml,line=2,title=LIC-01%3A Body/,
    );
    expect(line).not.toContain('\n');
    expect(line).toContain('%0AReplay: npx playwright test');
  });
});
