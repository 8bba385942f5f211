import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '@playwright/test';
import type { Observations } from '../../lib/client/observations.ts';
import { projectPath } from '../../lib/paths.ts';
import ConformanceReporter from '../../lib/report/conformance-reporter.ts';
import type { ConformanceReport } from '../../lib/report/model.ts';
import { targetLine } from '../../lib/report/run-meta.ts';
import { reporterCase } from './support/reporter-case.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const { version } = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string };

/** A passing test that one worker ran against its own mock, with a fault switched on. */
function workerTest(worker: number): { test: TestCase; result: TestResult } {
  const observations: Partial<Observations> = {
    calls: [{ operation: 'listNotifications', status: 200, ms: 3 }],
    drift: [],
    retries: [],
    // Worker 1 waited an outage of the service out.
    outages:
      worker === 1
        ? [
            {
              status: 503,
              began: '2026-11-24T10:00:00.000Z',
              ended: '2026-11-24T10:00:21.000Z',
              waitedOut: true,
              url: 'u',
            },
          ]
        : [],
    requests: 1,
    findings: [],
    deprecations: [],
    exchanges: [],
    baseUrl: `https://127.0.0.1:${40_000 + worker}`,
    replay: { faults: ['page-of-201'], origins: {} },
  };
  return reporterCase({
    id: `t${worker}`,
    titles: ['notifications.spec.ts', `page ${worker} @NOTIF-06`],
    line: worker,
    tags: ['@NOTIF-06'],
    status: 'passed',
    observations,
    annotations: [{ type: 'fc-seed', description: '77' }],
  });
}

/** A run of 14 workers' mocks, as the reporter writes it: Markdown, HTML and JSON. */
async function fourteenWorkers(): Promise<{ md: string; html: string; json: ConformanceReport }> {
  const dir = scratchFolder('header');
  const log = console.log;
  console.log = () => undefined;
  try {
    const reporter = new ConformanceReporter({ outputDir: dir });
    const tests = Array.from({ length: 14 }, (_, i) => workerTest(i + 1));
    const suite = {
      suites: [{ title: 'mock' }],
      allTests: () => tests.map((t) => t.test),
    } as unknown as Suite;
    reporter.onBegin({ shard: null, grep: /.*/, grepInvert: null } as unknown as FullConfig, suite);
    for (const t of tests) reporter.onTestEnd(t.test, t.result);
    await reporter.onEnd({ status: 'passed' } as FullResult);
  } finally {
    console.log = log;
  }
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return {
    md: read('conformance.md'),
    html: read('conformance.html'),
    json: JSON.parse(read('conformance.json')) as ConformanceReport,
  };
}

test.describe('the report header', () => {
  test('names the target in one line: the bundled mock with its number of workers, or the live base URL', () => {
    expect(targetLine('mock', '', 14)).toBe('the bundled mock, one per worker (14)');
    expect(targetLine('mock', '', 0)).toBe('the bundled mock');
    expect(targetLine('live', 'https://api.example.com', 1)).toBe('https://api.example.com');
  });

  test('shows target, faults, seed, suite, contract and outages at a glance in the Markdown, the HTML and the JSON', async () => {
    const { md, html, json } = await fourteenWorkers();
    const commit = json.run.suite.commit;
    const suite = `${version} (${commit ? `commit ${commit.slice(0, 12)}` : 'not a git checkout'})`;
    const contract = `${json.run.contract.version} (hash ${json.run.contract.hash})`;
    const header = md.split('\n## ')[0]!;
    for (const line of [
      '- **Target**: the bundled mock, one per worker (14)',
      '- **Faults**: page-of-201',
      '- **Seed**: 77 (fast-check)',
      `- **Suite**: ${suite}`,
      `- **Contract**: ${contract}`,
      '- **Outages**: 1 request(s) waited one out (503 from 2026-11-24T10:00:00.000Z to 2026-11-24T10:00:21.000Z)',
    ])
      expect(header.split('\n')).toContain(line);
    // One line for the target: no worker's address in the header.
    expect(header).not.toContain('127.0.0.1');
    expect(html).toContain('<li><b>Target</b>: the bundled mock, one per worker (14)</li>');
    expect(html).toContain(`<li><b>Suite</b>: ${suite}</li>`);
    expect(html).toContain(`<li><b>Contract</b>: ${contract}</li>`);
    expect(json.run).toMatchObject({
      target: 'the bundled mock, one per worker (14)',
      faults: ['page-of-201'],
      seed: '77',
      suite: { version },
      contract: { version: expect.any(String), hash: expect.stringMatching(/^[0-9a-f]{12}$/) },
      requests: 14,
    });
    // What the history and the trend read stays where it was.
    expect(json.meta).toMatchObject({ targetKind: 'mock', faults: ['page-of-201'], seed: '77' });
    expect(json.meta.baseUrl).toContain('https://127.0.0.1:40001');
  });
});
