import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Progress of a mutation run: a line the first time a test kills each fault (its `mutant` annotation). */
export default class MutationProgressReporter implements Reporter {
  private readonly killed = new Set<string>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const fault = [...result.annotations, ...test.annotations].find((a) => a.type === 'mutant')?.description;
    if (!fault || this.killed.has(fault) || result.status === 'passed' || result.status === 'skipped') return;
    this.killed.add(fault);
    console.log(`  ${fault} killed by ${test.title}`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
