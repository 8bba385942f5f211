import { existsSync, readFileSync, statSync } from 'node:fs';
import { declaredRules } from '../../lib/claims.ts';

/*
 * A mutation run's plan: which fault each test meets on each of its repeats. One Playwright run
 * serves every fault with warm workers: each test is declared once per repeat (a copy), and the
 * fixture switches the fault per copy. Copies of one file share their workers, where
 * `--repeat-each` would start new ones for every repeat.
 */

/**
 * The plan as `npm run mutation` writes it. A test's faults, in the order of its repeats: the clean
 * copy first when asked for, then the faults of the rules its title names, then its own.
 */
export interface PlanFile {
  /** Every test once with no fault first: the run's baseline, in the same warm workers. */
  clean?: boolean;
  /** By rule: every test whose title names the rule meets these faults. */
  byRule?: Record<string, string[]>;
  /** By test key: the faults this test meets. */
  byTest?: Record<string, string[]>;
  /**
   * A file of the faults killed so far, one a line (the progress reporter appends to it): a copy
   * whose fault is already killed is skipped, so a fault stops at its first kill.
   */
  kills?: string;
}

/** The annotation that names the fault a test's copy met: the reporters of a run read it. */
export const MUTANT_ANNOTATION = 'mutant';

/** Outside a mutation run: no plan, every test runs once against the run's own faults. */
export const NO_PLAN = Symbol('no mutation plan');

/** The environment variable that names a plan file, set by `npm run mutation` only. */
export const PLAN_VARIABLE = 'CLM_MUTATION_PLAN';

/** The fault of a clean copy: none. The fixture runs the copy against the clean target. */
export const CLEAN = '';

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

/** The rules a test's title names (`@NOTIF-07`). */
export const rulesOfTitle = (title: string): string[] => declaredRules(title);

/** The last part of a key: the test's own title. */
function titleOfKey(key: string): string {
  const at = key.lastIndexOf(' › ');
  return at < 0 ? key : key.slice(at + ' › '.length);
}

/** A test's faults under a plan file, in the order of its repeats, before any kill. */
export function faultsOf(plan: PlanFile, key: string): string[] {
  return [
    ...(plan.clean ? [CLEAN] : []),
    ...rulesOfTitle(titleOfKey(key)).flatMap((rule) => plan.byRule?.[rule] ?? []),
    ...(plan.byTest?.[key] ?? []),
  ];
}

/** How many copies a title needs: the most repeats of any test that has this title. */
function copiesOf(plan: PlanFile, title: string): number {
  const own = Object.entries(plan.byTest ?? {})
    .filter(([key]) => titleOfKey(key) === title)
    .map(([, faults]) => faults.length);
  const shared = faultsOf({ ...plan, byTest: {} }, title).length;
  return shared + Math.max(0, ...own);
}

let loaded: PlanFile | undefined;
let killed = { size: -1, faults: new Set<string>() };

function planFile(): PlanFile | undefined {
  const path = process.env[PLAN_VARIABLE];
  if (!path) return undefined;
  loaded ??= JSON.parse(readFileSync(path, 'utf8')) as PlanFile;
  return loaded;
}

/** The faults killed so far in this run (read again only when the file has grown). */
function killedFaults(path: string | undefined): Set<string> {
  if (!path || !existsSync(path)) return killed.faults;
  const size = statSync(path).size;
  if (size !== killed.size)
    killed = { size, faults: new Set(readFileSync(path, 'utf8').split('\n').filter(Boolean)) };
  return killed.faults;
}

/** The file a run's kills go to, if the plan stops each fault at its first kill. */
export function killsFile(): string | undefined {
  return planFile()?.kills;
}

/**
 * The fault the current plan gives a test's copy (its key and repeat): `CLEAN` for the clean copy,
 * `undefined` when the plan leaves the copy out or its fault is killed already (the fixture skips
 * it), and `NO_PLAN` outside a mutation run.
 */
export function plannedFault(key: string, repeat: number): string | undefined | typeof NO_PLAN {
  const plan = planFile();
  if (!plan) return NO_PLAN;
  const fault = faultsOf(plan, key)[repeat];
  return fault === undefined || killedFaults(plan.kills).has(fault) ? undefined : fault;
}

/**
 * A `test` function that declares each test once per repeat it has in the current plan (once
 * without a plan; not at all when the plan leaves it out). The copies differ only in their title's
 * mark, which `testKey` and `repeatOfTitle` read; the rest of `test` (describe, skip, …) is its own.
 */
export function declaredPerRepeat<T extends (title: string, ...rest: never[]) => void>(test: T): T {
  const plan = planFile();
  if (!plan) return test;
  const copies = (title: string, ...rest: never[]) => {
    for (let repeat = 0; repeat < copiesOf(plan, title); repeat++) test(copyTitle(title, repeat), ...rest);
  };
  return Object.assign(copies, test);
}
