import type { TestCase, TestResult } from '@playwright/test/reporter';
import { expect, test } from '@playwright/test';
import {
  FC_RUNS_ANNOTATION,
  TARGET_START_ANNOTATION,
  TimingsCollector,
  timingsMarkdown,
} from '../../lib/report/timings.ts';

/** A finished test as the reporter sees it: only what the timings read. */
function ended(title: string, ms: number, startOffset: number, worker: number, annotations: string[][] = []) {
  const test = { titlePath: () => ['', 'mock', 'file.spec.ts', title] } as unknown as TestCase;
  const result = {
    duration: ms,
    startTime: new Date(Date.now() + startOffset),
    parallelIndex: worker,
    annotations: annotations.map(([type, description]) => ({ type: type!, description })),
  } as unknown as TestResult;
  return [test, result] as const;
}

test.describe('where a run spent its time', () => {
  test('names the slowest tests, the runs of each property, each worker start and the first request', () => {
    const timings = new TimingsCollector();
    timings.add(...ended('warm-up', 5, 100, 0, [[TARGET_START_ANNOTATION, '812.5']]), 0);
    timings.add(
      ...ended('a property', 900, 200, 1, [
        [FC_RUNS_ANNOTATION, '25'],
        [FC_RUNS_ANNOTATION, '7'],
      ]),
      3,
    );
    timings.add(...ended('a slow test', 2_000, 300, 0), 12);
    const t = timings.timings(2);
    expect(t.slowest.map((s) => s.title)).toEqual(['a slow test', 'a property']);
    expect(t.properties).toEqual([{ title: 'a property', ms: 900, runs: [25, 7] }]);
    expect(t.workers.find((w) => w.worker === 0)?.targetStartMs).toBe(812.5);
    // The first test sent nothing: the first request came with the property, 200 ms in.
    expect(t.firstRequestMs).toBeGreaterThanOrEqual(190);
    expect(t.firstRequestMs).toBeLessThan(300);
    const markdown = timingsMarkdown(t);
    expect(markdown).toContain('| a property | 25, 7 | 0.90 s |');
    expect(markdown).toContain('| 0 | 0.81 s |');
  });

  test('a run that sent nothing says so', () => {
    const timings = new TimingsCollector();
    timings.add(...ended('offline', 5, 0, 0), 0);
    expect(timingsMarkdown(timings.timings())).toContain('First request: none sent');
  });
});
