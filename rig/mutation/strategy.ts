import type { Outcome } from './outcomes.ts';
import type { PlanFile } from './plan.ts';

/** What the strategy needs of a fault. */
export interface Mutant {
  name: string;
  rule: string;
}

/** One Playwright run of a plan, by name; the outcome of every copy it declared. */
export type RunPlan = (name: string, plan: PlanFile, faults: number) => Promise<Outcome[]>;

/** A mode's mutation: its baseline (the clean copies) and, by fault, the tests that killed it. */
export interface ModeResult {
  baseline: Outcome[];
  killed: Map<string, string[]>;
}

/** The kills of a planned run: by fault, the tests that failed with it. */
export function kills(tests: Outcome[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const t of tests)
    if (t.failed && t.fault) found.set(t.fault, [...(found.get(t.fault) ?? []), t.title]);
  return found;
}

/** The baseline of a mode: every test must pass; a failure there is a false positive. */
export function clean(name: string, tests: Outcome[]): boolean {
  const falsePositives = tests.filter((t) => t.failed);
  if (falsePositives.length === 0) return true;
  console.error(`${name} failed: ${falsePositives.length} test(s) fail with no fault (false positives):`);
  for (const t of falsePositives) console.error(`  ✗ ${t.key}`);
  return false;
}

/** The faults by the rule they break: every test of a rule meets the rule's faults. */
function byRule(faults: readonly Mutant[]): Record<string, string[]> {
  const plan: Record<string, string[]> = {};
  for (const f of faults) (plan[f.rule] ??= []).push(f.name);
  return plan;
}

/** The clean copies of a run that also ran faults: exactly one per test, else the fixture ignored them. */
function baselineOf(mode: string, tests: Outcome[]): Outcome[] {
  const baseline = tests.filter((t) => t.clean);
  const keys = new Set(tests.map((t) => t.key));
  if (baseline.length !== keys.size)
    throw new Error(
      `${mode}: ${baseline.length} clean copies ran for ${keys.size} tests; the plan was not followed`,
    );
  return baseline;
}

/**
 * The first run of a mode, each fault stopping at its first kill: the baseline (every test once
 * with no fault) and each fault against the tests of its rule, in the same warm workers. Undefined
 * when the baseline fails.
 */
export async function baselineAndRules(
  mode: string,
  faults: readonly Mutant[],
  run: RunPlan,
): Promise<ModeResult | undefined> {
  const first = await run(
    `${mode}: the clean mock, and each fault against the tests of its rule`,
    { clean: true, byRule: byRule(faults) },
    faults.length,
  );
  const baseline = baselineOf(mode, first);
  if (!clean(`${mode} baseline`, baseline)) return undefined;
  return { baseline, killed: kills(first) };
}

/** How a test meets a fault: it names the fault's rule, carries it as a tag, reaches its operations, or none. */
export type Reach = 'rule' | 'tagged' | 'operations' | 'rest';

/** How a test meets a fault, by the rules it names and the operations it called in the baseline. */
export function reachOf(f: Mutant, t: Outcome, operationsOf: ReadonlyMap<string, readonly string[]>): Reach {
  if (t.rules.includes(f.rule)) return 'rule';
  // The exploration's tests carry their rules as tags: the forms they send meet a fault before the
  // rest of the suite does.
  if (t.tagged.includes(f.rule)) return 'tagged';
  return t.operations.some((op) => operationsOf.get(f.rule)?.includes(op)) ? 'operations' : 'rest';
}

/** A plan by test: each fault on every test of the baseline that meets it as `meets` says. */
export function planByTest(
  faults: readonly Mutant[],
  baseline: readonly Outcome[],
  meets: (reach: Reach) => boolean,
  operationsOf: ReadonlyMap<string, readonly string[]>,
): Record<string, string[]> {
  const byTest: Record<string, string[]> = {};
  for (const f of faults)
    for (const t of baseline)
      if (!t.skipped && meets(reachOf(f, t, operationsOf))) (byTest[t.key] ??= []).push(f.name);
  return byTest;
}

/**
 * The survivors of the first run: each meets the tests tagged with its rule, then the other tests
 * that reach its rule's operations (per-test coverage from the baseline), then the rest of the
 * suite, stopping at its first kill.
 */
export async function survivors(
  mode: string,
  faults: readonly Mutant[],
  { baseline, killed }: ModeResult,
  operationsOf: ReadonlyMap<string, readonly string[]>,
  run: RunPlan,
): Promise<void> {
  const steps: [string, Reach][] = [
    ['the tests tagged with its rule', 'tagged'],
    ["the other tests that reach its rule's operations", 'operations'],
    ['the rest of the suite', 'rest'],
  ];
  for (const [what, step] of steps) {
    const left = faults.filter((f) => !killed.has(f.name));
    const byTest = planByTest(left, baseline, (reach) => reach === step, operationsOf);
    if (Object.keys(byTest).length === 0) continue;
    for (const [fault, by] of kills(
      await run(`${mode}: each fault against ${what}`, { byTest }, left.length),
    ))
      if (!killed.has(fault)) killed.set(fault, by);
  }
}
