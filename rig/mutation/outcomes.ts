import type { JSONReportSuite } from '@playwright/test/reporter';
import { OBSERVATIONS_ATTACHMENT } from '../../lib/client/observations.ts';
import { attributionOf } from '../../lib/report/attribution.ts';
import { CLEAN, repeatOfTitle, rulesOfTitle, testKey, MUTANT_ANNOTATION } from './plan.ts';

/** One test's outcome in one Playwright run. */
export interface Outcome {
  key: string;
  title: string;
  failed: boolean;
  skipped: boolean;
  property: boolean;
  rules: string[];
  /** The rules of its tags (`{ tag: '@HTTP-04' }`): an exploration test's, kept out of its title. */
  tagged: string[];
  /** A failed test: the rules its failure is attributed to. */
  attributed: string[];
  operations: string[];
  /** The fault the test met; none for a clean copy (`clean`) or a run without a plan. */
  fault: string | undefined;
  clean: boolean;
  /** How long it ran. */
  seconds: number;
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
        const fault = annotations.find((a) => a.type === MUTANT_ANNOTATION)?.description;
        const body = result?.attachments?.find((a) => a.name === OBSERVATIONS_ATTACHMENT)?.body;
        const calls = body
          ? (JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as { calls: { operation: string }[] })
              .calls
          : [];
        return {
          key: testKey([...here, spec.title]),
          title: repeatOfTitle(spec.title).title,
          failed: !!result && isKill(result.status),
          skipped: !result || result.status === 'skipped',
          property: spec.title.includes('@property'),
          rules: rulesOfTitle(spec.title),
          // The JSON report writes tags without their `@`.
          tagged: rulesOfTitle((spec.tags ?? []).map((t) => `@${t.replace(/^@/, '')}`).join(' ')),
          attributed: attributionOf(annotations)?.failed ?? [],
          operations: [...new Set(calls.map((c) => c.operation))],
          fault: fault || undefined,
          clean: fault === CLEAN,
          seconds: (result?.duration ?? 0) / 1000,
          seed: annotations.find((a) => a.type === 'fc-seed')?.description,
        };
      }),
    ),
    ...(suite.suites ?? []).flatMap((child) => outcomes(child, here)),
  ];
}

/**
 * Whether a test's status under a fault kills it: it failed, or ran out of its time. A run stopped
 * from outside (interrupted) or a skip proves nothing.
 */
export function isKill(status: string | undefined): boolean {
  return status === 'failed' || status === 'timedOut';
}
