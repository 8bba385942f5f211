import { says } from '../claims.ts';
import { ApiCheckError } from '../client/types.ts';
import { SHARED_RULES } from './expectations.ts';
import { resolveCase, type CaseOptions, type ExploreData, type Selection } from './select.ts';
import { WHOLE_REQUEST, type CaseOutcome, type ExploreCase } from './types.ts';

/** What went wrong with a case's answer, or undefined when it is what the contract says. */
export function judge(c: ExploreCase, status: number): string | undefined {
  const { outcome, statuses } = c.expect;
  if (outcome === 'tolerate') return status >= 500 ? `expected no 5xx, got ${status}` : undefined;
  if (statuses.includes(status)) return undefined;
  const what = outcome === 'accept' ? 'a valid request' : 'an invalid request';
  return `${what}: expected ${statuses.join(' or ')}, got ${status}`;
}

/**
 * The rules that state what status a case's request must get: a case that varies one parameter of
 * a request answered well without it (the baseline passed), and whose answer the contract decides,
 * fails them as well with a 5xx (NOTIF-02's as well as HTTP-04's when `since` brought it); a case
 * of no rule of its own, the operation's (`fallback`). A case of the whole request, a key or a
 * form decides none: what it varies is not what broke.
 */
const decidesOf = (c: ExploreCase, into: readonly CaseOutcome[], fallback: readonly string[]) =>
  c.expect.outcome !== 'tolerate' &&
  !c.parameter.startsWith('(') &&
  into.some((o) => o.case.parameter === WHOLE_REQUEST.baseline && o.ran && !o.failure)
    ? { decides: c.rules.length ? c.rules : fallback }
    : {};

/**
 * How one case goes out: the client's `call`, or its `raw` for a link the case follows as given,
 * reduced to what the exploration reads.
 */
export type Caller<R extends { status: number; curl: string } = { status: number; curl: string }> = (
  operationId: string,
  options: CaseOptions,
) => Promise<R>;

/** How the exploration learns that its baseline's answer says the operation is gone (DEPR-01). */
export type Retired<R> = (response: R) => boolean;

/**
 * Runs the selected cases one by one through `call`. A failed automatic check of the client is the
 * case's failure; anything else (the run stopped, say) goes up. Each outcome is recorded in `into`
 * as it comes, so what ran is known however the run ends. When the baseline's answer says the
 * operation is gone, the other cases are not run: the status is returned. `fallback` is the
 * operation's own rule, for a case of none (as in `failuresOf`).
 */
export async function runCases<R extends { status: number; curl: string; text?: string }>(
  selection: Selection,
  data: ExploreData,
  call: Caller<R>,
  into: CaseOutcome[],
  retired: Retired<R> = () => false,
  refusedBy: (c: ExploreCase, response: R) => string[] = () => [],
  fallback: readonly string[] = [],
): Promise<number | undefined> {
  for (const { case: c, reason } of selection.left) into.push({ case: c, ran: false, reason });
  for (const [index, c] of selection.run.entries()) {
    const resolved = resolveCase(c, data);
    if ('reason' in resolved) {
      into.push({ case: c, ran: false, reason: resolved.reason });
      continue;
    }
    try {
      const response = await call(c.operation, { ...resolved.options, ...decidesOf(c, into, fallback) });
      if (c.parameter === WHOLE_REQUEST.baseline && retired(response)) {
        into.push({ case: c, ran: true, status: response.status });
        for (const rest of selection.run.slice(index + 1))
          into.push({ case: rest, ran: false, reason: `gone (${response.status})` });
        return response.status;
      }
      const wrong = judge(c, response.status);
      // A valid request refused for a parameter the refusal names (or its key) is that one's rules' failure.
      const refused = wrong && c.kind === 'positive' ? refusedBy(c, response) : [];
      into.push({
        ...(refused.length ? { owners: refused } : {}),
        case: c,
        ran: true,
        status: response.status,
        curl: response.curl,
        ...(c.kind === 'negative' && response.status >= 200 && response.status < 300 ? { served: true } : {}),
        ...(wrong ? { failure: `${wrong}\n  Reproduce with:\n  ${response.curl}` } : {}),
      });
    } catch (error) {
      if (!(error instanceof ApiCheckError)) throw error;
      const owners = [...new Set(error.failures.flatMap((f) => f.rules))];
      into.push({
        case: c,
        ran: true,
        failure: error.message,
        curl: error.curl,
        ...(owners.length ? { owners } : {}),
      });
    }
  }
  return undefined;
}

/**
 * The failures of a run, one paragraph each, named by case and rules, and opening with the rules
 * they are attributed to (`says`): the rules of the checks that failed, else the case's, else
 * `fallback` (the operation's own).
 */
export function failuresOf(outcomes: readonly CaseOutcome[], fallback: readonly string[] = []): string[] {
  // The baseline, a valid request, failed: every other case that failed is blocked by it (a refused
  // key, an operation gone), for its rules.
  const baseline = outcomes.find((o) => o.case.parameter === WHOLE_REQUEST.baseline && o.failure);
  // It failed with the key in the header where the same request with the key in the query did not:
  // the header's form of the key is what fails (AUTH-01), whatever check its answer broke.
  const inQuery = outcomes.find((o) => o.ran && o.case.kind === 'positive' && o.case.request.key === 'query');
  const keyForm = baseline?.case.request.key === 'header' && inQuery && !inQuery.failure;
  const ownersOf = (o: CaseOutcome) =>
    o === baseline && keyForm ? [SHARED_RULES.headerKey] : (o.owners ?? o.case.rules);
  return outcomes
    .filter((o) => o.failure !== undefined)
    .map((o) => {
      const rules = o.case.rules.length ? `; ${o.case.rules.join(', ')}` : '';
      // The key's place is what fails: the checks its answer broke would name another rule.
      const failure =
        keyForm && o.case.request.key === 'header'
          ? 'with the key in the header the answer fails the contract; in the query it conforms' +
            (o.curl ? `\n  Reproduce with:\n  ${o.curl}` : '')
          : o.failure;
      const text = `${o.case.id} (${o.case.kind}${rules}): ${failure}`;
      const owners = baseline ? ownersOf(baseline) : ownersOf(o);
      // A case of no rule of its own (an operation whose rules its document carries) is the operation's.
      return says(owners.length ? owners : fallback, text);
    });
}
