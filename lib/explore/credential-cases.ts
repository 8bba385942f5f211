import { add, type Builder, type Outcome } from './builder.ts';
import { checkedRules, KEY_REFUSAL, schemeRules, SHARED_RULES } from './expectations.ts';
import type { CaseRequest } from './types.ts';

/**
 * The cases of an operation's credentials: no key, an unknown key in each place the contract lets
 * it go, and, where the operation takes a bearer token, none or an unknown one.
 */
export function credentialCases(b: Builder, placements: Set<string>, bearer: boolean): void {
  const { noKey, unknownKey } = SHARED_RULES;
  const keys: [string, CaseRequest['key'], string][] = [
    ['no-key', 'none', noKey],
    ['unknown-key-in-header', 'unknown-header', unknownKey],
    ['unknown-key-in-query', 'unknown-query', unknownKey],
  ];
  for (const [variant, key, rule] of keys) {
    if (placements.size === 0 || (key === 'unknown-query' && !placements.has('query'))) continue;
    const rules = checkedRules(b.contract, [rule], b.options.mode);
    add(
      b,
      'negative',
      '(key)',
      variant,
      rules,
      { refused: KEY_REFUSAL, invalid: false },
      (r) => void (r.key = key),
    );
  }
  if (!bearer) return;
  const rules = checkedRules(b.contract, schemeRules(b.contract, b.op, 'bearer'), b.options.mode);
  const outcome: Outcome = rules.length > 0 ? { refused: rules, invalid: false } : 'tolerate';
  for (const [variant, token] of [
    ['no-token', 'none'],
    ['unknown-token', 'unknown'],
  ] as const)
    add(
      b,
      'negative',
      '(token)',
      variant,
      rules.length > 0 ? rules : [SHARED_RULES.malformed],
      outcome,
      (r) => void (r.token = token),
    );
}
