import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Progress of a mutation run, where each Playwright project is one mutant: a line as each mutant
 * is decided (killed or survived), with the count so far and the time left at the current pace.
 */
export default class MutationProgressReporter implements Reporter {
  private readonly left = new Map<string, number>();
  private readonly failed = new Map<string, string>();
  private total = 0;
  private done = 0;
  private killed = 0;
  private started = 0;

  onBegin(_config: unknown, suite: Suite): void {
    this.started = performance.now();
    for (const project of suite.suites) this.left.set(project.title, project.allTests().length);
    this.total = this.left.size;
    console.log(
      `${process.env.CLM_MUTATION_PHASE ?? 'Mutants'}: ${this.total} mutants, ${suite.allTests().length} tests`,
    );
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = test.parent.project()?.name ?? '';
    if (result.status !== 'passed' && result.status !== 'skipped' && !this.failed.has(project))
      this.failed.set(project, test.title);
    const left = (this.left.get(project) ?? 1) - 1;
    this.left.set(project, left);
    if (left > 0) return;
    this.done++;
    if (this.failed.has(project)) this.killed++;
    const elapsed = (performance.now() - this.started) / 1000;
    const eta = (elapsed / this.done) * (this.total - this.done);
    const killer = this.failed.get(project);
    const verdict = killer ? `killed by ${killer}` : 'survived';
    console.log(
      `  mutant ${this.done} of ${this.total}: ${project} ${verdict}; ${this.killed} killed so far, ~${eta.toFixed(0)} s left`,
    );
  }

  onEnd(_result: FullResult): void {}

  printsToStdio(): boolean {
    return true;
  }
}
