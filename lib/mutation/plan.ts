import { readFileSync } from 'node:fs';

/**
 * A mutation run's plan: which fault each test meets on each of its repeats. One Playwright run
 * (`--repeat-each`) serves every fault with warm workers: the fixture switches the fault per test.
 */
export interface MutationPlan {
  /** By test key, the fault for each repeat index; a test or repeat not listed is not run. */
  faults: Record<string, string[]>;
}

/** The environment variable that names a plan file, set by `npm run mutation` only. */
export const PLAN_VARIABLE = 'CLM_MUTATION_PLAN';

/** A test's key in a plan: its title path below its file (describe blocks and title), stable across runs. */
export function testKey(titlePath: readonly string[]): string {
  return titlePath.filter((t) => t !== '' && !t.endsWith('.ts')).join(' › ');
}

let loaded: MutationPlan | undefined;

/** The plan this run follows, if any. */
export function currentPlan(): MutationPlan | undefined {
  const path = process.env[PLAN_VARIABLE];
  if (!path) return undefined;
  loaded ??= JSON.parse(readFileSync(path, 'utf8')) as MutationPlan;
  return loaded;
}

/** The most repeats any test of the plan needs. */
export function repeatsOf(plan: MutationPlan): number {
  return Math.max(1, ...Object.values(plan.faults).map((list) => list.length));
}
