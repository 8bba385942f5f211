/**
 * What an assertion says it decides, kept as data while a test runs. An assertion's message that
 * opens with rule ids (`says`) decides those rules, whether the test's title names them or not: a
 * test of NOTIF-10 that finds its walk broken says `NOTIF-09: …`, and is blocked by NOTIF-09 rather
 * than failing NOTIF-10. The ids travel beside the message, never read back out of it: the test's
 * fixture takes the claims whose words its failure holds.
 */

/** One claim: the rules an assertion decides, and the words its message carries. */
export interface Claim {
  rules: string[];
  text: string;
}

/** The claims made since the last `takeClaims`, by their words (one test's, in a worker). */
let made = new Map<string, string[]>();

/** The message of an assertion that decides `rules`: they open it, and are kept as a claim. */
export function says(rules: string | readonly string[], message: string): string {
  const ids = typeof rules === 'string' ? (rules ? [rules] : []) : [...rules];
  if (ids.length === 0) return message;
  const text = `${ids.join(', ')}: ${message}`;
  made.set(text, ids);
  return text;
}

/** The claims made since the last call, and a fresh start: a test's fixture takes them at its end. */
export function takeClaims(): Claim[] {
  const claims = [...made].map(([text, rules]) => ({ rules, text }));
  made = new Map();
  return claims;
}

/** A rule's id as the catalogue writes it (`NOTIF-07`); a test declares its rules as tags (`@NOTIF-07`). */
const RULE_ID = /^[A-Z]+-\d{2}$/;
const RULE_TAGS = /@([A-Z]+-\d{2})\b/g;

export const isRuleId = (text: string) => RULE_ID.test(text);

/** The rules a test declares in its title or its tags (`@NOTIF-07`): the declaration, never a message. */
export function declaredRules(...titlesOrTags: readonly string[]): string[] {
  return titlesOrTags.flatMap((t) => [...t.matchAll(RULE_TAGS)].map((m) => m[1]!));
}
