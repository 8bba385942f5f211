import type { TestCase, TestResult } from '@playwright/test/reporter';
import { OBSERVATIONS_ATTACHMENT, type Observations } from '../../../lib/client/observations.ts';
import { projectPath } from '../../../lib/paths.ts';

/** A conformance test of the mock project as Playwright hands it to a reporter, with the client's observations. */
export function reporterCase(c: {
  id: string;
  /** The file under tests/conformance/, then the describe and test titles. */
  titles: [string, ...string[]];
  line: number;
  tags: string[];
  status: TestResult['status'];
  observations: Partial<Observations>;
  annotations?: TestResult['annotations'];
  errors?: unknown[];
}): { test: TestCase; result: TestResult } {
  const test = {
    id: c.id,
    titlePath: () => ['', 'mock', ...c.titles],
    location: { file: projectPath(`tests/conformance/${c.titles[0]}`), line: c.line, column: 3 },
    tags: c.tags,
    annotations: [],
    title: c.titles.at(-1),
    parent: { project: () => ({ name: 'mock' }), allTests: () => [test] },
  } as unknown as TestCase;
  const result = {
    status: c.status,
    annotations: c.annotations ?? [],
    attachments: [
      {
        name: OBSERVATIONS_ATTACHMENT,
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(c.observations)),
      },
    ],
    errors: c.errors ?? [],
  } as unknown as TestResult;
  return { test, result };
}
