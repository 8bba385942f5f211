import type { JSONReportSuite } from '@playwright/test/reporter';
import { OBSERVATIONS_ATTACHMENT } from '../client/observations.ts';
import { repeatOfTitle, testKey } from './plan.ts';

/** One test's outcome in one Playwright run. */
export interface Outcome {
  key: string;
  title: string;
  failed: boolean;
  skipped: boolean;
  property: boolean;
  rules: string[];
  operations: string[];
  fault: string | undefined;
  seed: string | undefined;
}

/** Each test's outcome in a suite of Playwright's JSON report, as far as a mutation run reads it. */
export function outcomes(suite: JSONReportSuite, path: string[] = []): Outcome[] {
  const here = suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path;
  return [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => {
        const result = test.results[test.results.length - 1];
        const annotations = [...(test.annotations ?? []), ...(result?.annotations ?? [])];
        const body = result?.attachments?.find((a) => a.name === OBSERVATIONS_ATTACHMENT)?.body;
        const calls = body
          ? (JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as { calls: { operation: string }[] })
              .calls
          : [];
        return {
          key: testKey([...here, spec.title]),
          title: repeatOfTitle(spec.title).title,
          failed: !!result && !['passed', 'skipped'].includes(result.status ?? ''),
          skipped: !result || result.status === 'skipped',
          property: spec.title.includes('@property'),
          rules: [...spec.title.matchAll(/@([A-Z]+-\d{2})/g)].map((m) => m[1]!),
          operations: [...new Set(calls.map((c) => c.operation))],
          fault: annotations.find((a) => a.type === 'mutant')?.description,
          seed: annotations.find((a) => a.type === 'fc-seed')?.description,
        };
      }),
    ),
    ...(suite.suites ?? []).flatMap((child) => outcomes(child, here)),
  ];
}
