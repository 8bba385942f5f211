import type { CheckFinding } from '../client/observations.ts';

/**
 * Which rules a failed test's failure belongs to. A failed automatic check belongs to the rule that
 * owns what broke (the schema node's, the status's, the check's own); a test's own assertion to the
 * rules in its title. A test stopped by a rule outside its own is blocked by it: its own rules are
 * not decided by it, neither passed nor failed. Playwright still counts the test failed, so the
 * mutation run still counts its fault killed.
 */

export interface Attribution {
  /** The rules the failure is attributed to. */
  failed: string[];
  /** The test's own rules it leaves undecided, and the rules that blocked them. */
  blocked: string[];
  blockedBy: string[];
  /** The checks the failure is, in the order they failed; none for the test's own assertion. */
  checks: CheckFinding[];
}

/** The annotations JUnit carries as properties: the rules a failure is attributed to, its blockers. */
export const ATTRIBUTED_ANNOTATION = 'attributed-to';
export const BLOCKED_BY_ANNOTATION = 'blocked-by';

/** Text without quotes and escapes: a title quoted inside an assertion's diff is still found. */
const bare = (text: string) => text.replace(/[\\"']/g, '');

/**
 * An assertion's message that opens with a rule's id decides that rule, whether the test's title
 * names it or not: a test of NOTIF-10 that finds its walk broken says `NOTIF-09: …`, and is
 * blocked by NOTIF-09 rather than failing NOTIF-10.
 */
export const says = (rules: string | readonly string[], message: string) => {
  const ids = typeof rules === 'string' ? rules : rules.join(', ');
  return ids ? `${ids}: ${message}` : message;
};
const SAID =
  /(?:^|\n)[ \t]*(?:(?:[A-Za-z]*Error|\[cause\]|Got error): )*([A-Z]+-\d{2}(?:, [A-Z]+-\d{2})*): /g;
// eslint-disable-next-line no-control-regex
const plainText = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * The attribution of a failure: the checks whose title its error text names are what failed (a
 * check caught and put up with by the test is not); none named, the test's own assertion failed:
 * the rules its message opens with (`says`), else the rules of its title that the message names,
 * else all of them.
 */
export function attribute(own: string[], errorText: string, findings: CheckFinding[]): Attribution {
  const text = bare(plainText(errorText));
  const checks = findings.filter((f) => text.includes(bare(f.title)));
  const said = [...new Set([...plainText(errorText).matchAll(SAID)].flatMap((m) => m[1]!.split(', ')))];
  // An assertion whose message names some of the test's rules (an exploration case's, say) is theirs.
  const named = own.filter((id) => new RegExp(`\\b${id}\\b`).test(text));
  const mine = said.length ? said : named.length ? named : own;
  // A check that names no rule (an undocumented status) is the consequence of one that does.
  const ruled = checks.filter((f) => f.rules.length > 0);
  const failed = ruled.length ? [...new Set(ruled.flatMap((f) => f.rules))] : mine;
  const blocked = own.filter((r) => !failed.includes(r));
  return { failed, blocked, blockedBy: blocked.length ? failed : [], checks };
}

/** What a test decides of each of its rules and of the rules its failure is attributed to. */
export function ruleOutcomes(
  own: string[],
  outcome: string,
  attribution: Attribution | undefined,
): Record<string, string> {
  if (outcome !== 'failed' || !attribution) return Object.fromEntries(own.map((r) => [r, outcome]));
  const pairs: [string, string][] = [
    ...attribution.failed.map((r): [string, string] => [r, 'failed']),
    ...attribution.blocked.map((r): [string, string] => [r, 'blocked']),
  ];
  return Object.fromEntries(pairs);
}

/** Every error of a test, causes included: where the attribution looks for the checks' titles. */
export const errorTextOf = (errors: { message?: string; value?: string; cause?: { message?: string } }[]) =>
  errors.map((e) => `${e.message ?? e.value ?? ''}\n${e.cause?.message ?? ''}`).join('\n');
