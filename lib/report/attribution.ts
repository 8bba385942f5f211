import type { Claim } from '../claims.ts';
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

/**
 * The one annotation a failed test carries its attribution in, as JSON: the fixture decides it once,
 * and the reporters, JUnit (as a property), the findings and the mutation run read it.
 */
export const ATTRIBUTION_ANNOTATION = 'attribution';

/** The attribution a test's annotations carry, if any. */
export function attributionOf(annotations: readonly { type: string; description?: string }[]) {
  const found = annotations.find((a) => a.type === ATTRIBUTION_ANNOTATION)?.description;
  return found ? (JSON.parse(found) as Attribution) : undefined;
}

/** A failure no fixture attributed (a test without one): its own rules failed. */
export const ownFailure = (own: string[]): Attribution => ({
  failed: own,
  blocked: [],
  blockedBy: [],
  checks: [],
});

/** Text without quotes and escapes: a title quoted inside an assertion's diff is still found. */
const bare = (text: string) => text.replace(/[\\"']/g, '');
// eslint-disable-next-line no-control-regex
const plainText = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * The attribution of a failure: the checks whose title its error text holds are what failed (a
 * check caught and put up with by the test is not); none, the test's own assertion failed: the
 * rules of the claims (`says`) whose words it holds, else the rules of its title. Rule ids come from
 * the checks and the claims as data; the error's text only says which of them ended the test.
 */
export function attribute(
  own: string[],
  errorText: string,
  findings: CheckFinding[],
  claims: readonly Claim[] = [],
): Attribution {
  const text = bare(plainText(errorText));
  const checks = findings.filter((f) => text.includes(bare(f.title)));
  const said = [...new Set(claims.filter((c) => text.includes(bare(c.text))).flatMap((c) => c.rules))];
  const mine = said.length ? said : own;
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
