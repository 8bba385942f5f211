import { appendFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { killsFile, MUTANT_ANNOTATION } from './plan.ts';
import { isKill } from './outcomes.ts';

/**
 * Progress of a mutation run: a line the first time a test kills each fault (its `mutant`
 * annotation). When the plan stops each fault at its first kill, the kill also goes to the plan's
 * kills file at once, so the workers skip the fault's copies that have not started yet.
 */
export default class MutationProgressReporter implements Reporter {
  private readonly killed = new Set<string>();
  private readonly kills = killsFile();

  onTestEnd(test: TestCase, result: TestResult): void {
    const fault = [...result.annotations, ...test.annotations].find(
      (a) => a.type === MUTANT_ANNOTATION,
    )?.description;
    if (!fault || this.killed.has(fault) || !isKill(result.status)) return;
    this.killed.add(fault);
    if (this.kills) appendFileSync(this.kills, `${fault}\n`);
    console.log(`  ${fault} killed by ${test.title}`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
