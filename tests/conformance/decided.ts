import { expect } from '@playwright/test';
import { says } from '../../lib/claims.ts';
import type { Observations } from '../../lib/client/observations.ts';
import { decision, describeAnswer, judge, type Answer, type DecisionId } from '../../lib/decisions.ts';

/** Where a test met a decision's question: for the failure's message and the drift. */
export interface DecisionCall {
  operation: string;
  /** The field the drift names. */
  field: string;
  /** The answer's status; by default the answer itself, where that is a status. */
  status?: number;
  /** What was asked, in words: the drift's `{case}`, and the message's start unless `what` says. */
  case?: string;
  what?: string;
  /** What the test asked for, where the decided answer is that (`{ asked: true }`). */
  asked?: unknown;
  /** The rules a failure is, where not the row's: the rule of the parameter a refusal names. */
  rules?: readonly string[];
}

/**
 * Asserts a decision of `lib/decisions.ts`: the decided answer, or, from a live service, the other
 * answer the row allows, whose drift it notes. Says which it met; anything else fails, as the row's.
 */
export type Decided = (id: DecisionId, actual: unknown, call: DecisionCall) => 'decided' | 'other';

const shown = (actual: unknown) =>
  typeof actual === 'string' ? actual : (JSON.stringify(actual) ?? String(actual));

/** Fails with the matcher that shows the decided answer best. */
function fail(answer: Answer, actual: unknown, message: string, asked: unknown): never {
  if ('statuses' in answer && answer.statuses.length === 1) expect(actual, message).toBe(answer.statuses[0]);
  else if ('statuses' in answer) expect(answer.statuses, message).toContain(actual);
  else if ('below' in answer) expect(actual, message).toBeLessThan(answer.below);
  else if ('from' in answer) {
    const status = actual as number;
    expect(status >= answer.from && status <= answer.to, message).toBe(true);
  } else if ('matches' in answer) expect(actual, message).toMatch(answer.matches);
  else if ('oneOf' in answer) expect(answer.oneOf, message).toContain(actual);
  else if ('equals' in answer) expect(actual, message).toEqual(answer.equals);
  else if ('asked' in answer) expect(actual, message).toEqual(asked);
  // The answer was judged not to meet it: whatever a matcher above made of it, this fails.
  expect(actual, message).toBe(true);
  throw new Error(message);
}

/**
 * The decisions of one test: whether its target keeps them (its promise `strict`), its observations,
 * the rules it declares.
 */
export function decider(strict: boolean, observations: Observations, declared: readonly string[]): Decided {
  return (id, actual, call) => {
    const row = decision(id);
    const outcome = judge(row, actual, { strict, asked: call.asked });
    if (outcome === 'decided') return outcome;
    const answer = shown(actual);
    if (outcome === 'other') {
      if (row.drift)
        observations.drift.push({
          operation: call.operation,
          status: call.status ?? (typeof actual === 'number' ? actual : 0),
          field: call.field,
          note: row.drift.replace('{case}', call.case ?? '').replace('{answer}', answer),
        });
      return outcome;
    }
    // A failure is the row's rules that the test declares, else all of them.
    const mine = row.rules.filter((rule) => declared.includes(rule));
    const rules = call.rules ?? (mine.length ? mine : row.rules);
    const others = strict ? '' : `; live also ${describeAnswer(row.live)}`;
    const what = `${call.what ?? call.case ?? call.operation}: ${answer} (${id}: ${describeAnswer(row.decided)}${others})`;
    return fail(row.decided, actual, says(rules, what), call.asked);
  };
}
