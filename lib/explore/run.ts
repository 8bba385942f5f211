import { ApiCheckError, type CallOptions } from '../client/types.ts';
import { resolveCase, type ExploreData, type Selection } from './select.ts';
import type { CaseOutcome, ExploreCase } from './types.ts';

/** What went wrong with a case's answer, or undefined when it is what the contract says. */
export function judge(c: ExploreCase, status: number): string | undefined {
  const { outcome, statuses } = c.expect;
  if (outcome === 'tolerate') return status >= 500 ? `expected no 5xx, got ${status}` : undefined;
  if (statuses.includes(status)) return undefined;
  const what = outcome === 'accept' ? 'a valid request' : 'an invalid request';
  return `${what}: expected ${statuses.join(' or ')}, got ${status}`;
}

/** How one call goes out: the client's `call`, reduced to what the exploration reads. */
export type Caller = (operationId: string, options: CallOptions) => Promise<{ status: number; curl: string }>;

/**
 * Runs the selected cases one by one through `call`. A failed automatic check of the client is the
 * case's failure; anything else (the run stopped, say) goes up. Each outcome is recorded in `into`
 * as it comes, so what ran is known however the run ends.
 */
export async function runCases(
  selection: Selection,
  data: ExploreData,
  call: Caller,
  into: CaseOutcome[],
): Promise<void> {
  for (const { case: c, reason } of selection.left) into.push({ case: c, ran: false, reason });
  for (const c of selection.run) {
    const resolved = resolveCase(c, data);
    if ('reason' in resolved) {
      into.push({ case: c, ran: false, reason: resolved.reason });
      continue;
    }
    try {
      const response = await call(c.operation, resolved.options);
      const wrong = judge(c, response.status);
      into.push({
        case: c,
        ran: true,
        status: response.status,
        ...(wrong ? { failure: `${wrong}\n  Reproduce with:\n  ${response.curl}` } : {}),
      });
    } catch (error) {
      if (!(error instanceof ApiCheckError)) throw error;
      into.push({ case: c, ran: true, failure: error.message });
    }
  }
}

/** The failures of a run, one paragraph each, named by case and rules. */
export function failuresOf(outcomes: readonly CaseOutcome[]): string[] {
  return outcomes
    .filter((o) => o.failure !== undefined)
    .map(
      (o) =>
        `${o.case.id} (${o.case.kind}${o.case.rules.length ? `; ${o.case.rules.join(', ')}` : ''}): ${o.failure}`,
    );
}
