import { readFileSync } from 'node:fs';

/**
 * A mutation run's plan: which fault each test meets on each of its repeats. One Playwright run
 * serves every fault with warm workers: each test is declared once per repeat (a copy), and the
 * fixture switches the fault per copy. Copies of one file share their workers, where
 * `--repeat-each` would start new ones for every repeat.
 */
export interface MutationPlan {
  /** By test key, the fault for each repeat index; a test or repeat not listed is not run. */
  faults: Record<string, string[]>;
}

/** The environment variable that names a plan file, set by `npm run mutation` only. */
export const PLAN_VARIABLE = 'CLM_MUTATION_PLAN';

const COPY = / ⟨repeat (\d+)⟩$/;

/** The title of a test's copy for one repeat: the first keeps the title as it is. */
export function copyTitle(title: string, repeat: number): string {
  return repeat === 0 ? title : `${title} ⟨repeat ${repeat}⟩`;
}

/** A title without its copy mark, and the repeat the copy stands for. */
export function repeatOfTitle(title: string): { title: string; repeat: number } {
  const match = COPY.exec(title);
  return match ? { title: title.slice(0, match.index), repeat: Number(match[1]) } : { title, repeat: 0 };
}

/** A test's key in a plan: its title path below its file (describe blocks and title), stable across runs. */
export function testKey(titlePath: readonly string[]): string {
  return titlePath
    .filter((t) => t !== '' && !t.endsWith('.ts'))
    .map((t) => repeatOfTitle(t).title)
    .join(' › ');
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

/**
 * A `test` function that declares each test once per repeat of the current plan (once without a
 * plan). The copies differ only in their title's mark, which `testKey` and `repeatOfTitle` read.
 */
export function declaredPerRepeat<T extends object>(test: T): T {
  const plan = currentPlan();
  const repeats = plan ? repeatsOf(plan) : 1;
  if (repeats <= 1) return test;
  return new Proxy(test, {
    apply: (target, self, [title, ...rest]: unknown[]) => {
      for (let repeat = 0; repeat < repeats; repeat++)
        Reflect.apply(target as (...args: unknown[]) => void, self, [
          copyTitle(String(title), repeat),
          ...rest,
        ]);
    },
  });
}
