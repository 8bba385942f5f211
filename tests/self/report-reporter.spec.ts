import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '@playwright/test';
import type { Observations } from '../../lib/client/observations.ts';
import ConformanceReporter from '../../lib/report/conformance-reporter.ts';
import type { ConformanceReport } from '../../lib/report/model.ts';
import { reporterCase } from './support/reporter-case.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const WORKER = 'https://127.0.0.1:40123';

/** A failed licence test as Playwright hands it to a reporter, with the client's observations. */
function failedTest(): { test: TestCase; result: TestResult } {
  const observations: Observations = {
    calls: [{ operation: 'getLicence', status: 200, ms: 5 }],
    drift: [],
    retries: [],
    requests: 1,
    findings: [],
    deprecations: [],
    exchanges: [
      {
        method: 'GET',
        url: `${WORKER}/licence/abc`,
        status: 200,
        curl: `curl -sS -k -H "X-Api-Key: $CLM_API_KEY" "${WORKER}/licence/abc"`,
        body: '{"id":"abc"}',
      },
    ],
    replay: {
      faults: ['licence-any-key'],
      origins: { [WORKER]: 'https://127.0.0.1:8443' },
      mockCommand: 'npm run mock -- --seed 1 --fault licence-any-key',
    },
  };
  return reporterCase({
    id: 'licence-1',
    titles: ['licence.spec.ts', 'access licence', 'outside key gets 403 @LIC-07'],
    line: 124,
    tags: ['@LIC-07'],
    status: 'failed',
    observations,
    annotations: [{ type: 'fc-seed', description: '9' }],
    // A failed property: fast-check's frame, with the assertion that broke as its cause.
    errors: [
      {
        message: 'Error: Property failed after 3 tests\n{ seed: 9, path: "2", endOnFailure: true }',
        cause: { message: 'Error: expect(received).toBe(expected)\n\nExpected: 403\nReceived: 200' },
      },
    ],
  });
}

test.describe('the conformance reporter', () => {
  test('writes the finding with its replay, the run, the history, the job summary and an annotation', async () => {
    const dir = scratchFolder('reporter');
    const summary = join(dir, 'summary.md');
    const logged: string[] = [];
    const saved = { ...process.env };
    const log = console.log;
    process.env.GITHUB_STEP_SUMMARY = summary;
    process.env.GITHUB_ACTIONS = 'true';
    console.log = (...args: unknown[]) => void logged.push(args.join(' '));
    try {
      const reporter = new ConformanceReporter({ outputDir: dir });
      const { test: failed, result } = failedTest();
      const suite = { suites: [{ title: 'mock' }], allTests: () => [failed] } as unknown as Suite;
      reporter.onBegin({ shard: null, grep: /.*/, grepInvert: null } as unknown as FullConfig, suite);
      reporter.onTestEnd(failed, result);
      await reporter.onEnd({ status: 'failed' } as FullResult);
    } finally {
      console.log = log;
      process.env = saved;
    }
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.verdict).toBe('fail');
    expect(report.meta.faults).toEqual(['licence-any-key']);
    expect(report.meta.partial).toEqual([]);
    const [finding] = report.findings;
    expect(finding!.rules).toEqual(['LIC-07']);
    expect([finding!.expected, finding!.received]).toEqual(['403', '200']);
    expect(finding!.replay).toBe(
      'MOCK_FAULTS=licence-any-key FC_SEED=9 ' +
        'npx playwright test tests/conformance/licence.spec.ts:124 --project=mock',
    );
    expect(finding!.exchange!.curl).toContain('https://127.0.0.1:8443/licence/abc');
    expect(JSON.stringify(report)).not.toContain(WORKER);
    expect(readFileSync(summary, 'utf8')).toContain('Verdict: FAIL');
    expect(readFileSync(summary, 'utf8')).toContain('expect(received).toBe(expected) (getLicence)');
    expect(
      logged.some((l) => l.startsWith('::error file=openapi/paths/licence_{licenceId}.yaml,line=2')),
    ).toBe(true);
    expect(readFileSync(join(dir, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'partial'))).toBe(false);
  });
});
