import type { OpenAPIV3_1 } from 'openapi-types';
import type { Contract, Operation, Parameter } from '../contract/index.ts';
import { accept, checkedRules, reject, SHARED_RULES, tolerate } from './expectations.ts';
import type { CaseKind, CaseRequest, CaseValue, Expectation, ExploreCase, ExploreOptions } from './types.ts';

/** What a case must get: a success, a refusal by these rules (or of input as such), or no 5xx. */
export type Outcome = 'accept' | { refused: string[] | 'input'; invalid: boolean } | 'tolerate';

/** One operation's cases in the making: each varies the baseline request in one way. */
export interface Builder {
  contract: Contract;
  op: Operation;
  options: ExploreOptions;
  base: CaseRequest;
  /** The rules a success of the operation answers to. */
  success: string[];
  cases: ExploreCase[];
}

export const rulesOf = (item: unknown, key = 'x-rules'): string[] =>
  (item as Record<string, string[] | undefined>)[key] ?? [];

/** A parameter's examples: `example`, then the values of `examples`. */
export function examplesOf(p: Parameter): unknown[] {
  const named = Object.values(p.examples ?? {}).map((e) => (e as OpenAPIV3_1.ExampleObject).value as unknown);
  return [...(p.example === undefined ? [] : [p.example as unknown]), ...named];
}

/** Where a parameter goes in a request. */
export function place(request: CaseRequest, p: Parameter): Record<string, CaseValue> {
  return p.in === 'path' ? request.path : p.in === 'header' ? request.headers : request.query;
}

function expectation(b: Builder, request: CaseRequest, outcome: Outcome): Expectation {
  if (outcome === 'accept') return accept(b.op, request, b.options);
  if (outcome === 'tolerate') return tolerate(b.op);
  const refusal = reject(b.op, outcome.refused === 'input' ? [] : outcome.refused, outcome.invalid);
  // An operation that documents no refusal can only be held to "never a 5xx".
  return refusal.statuses.length > 0 ? refusal : tolerate(b.op);
}

export function add(
  b: Builder,
  kind: CaseKind,
  parameter: string,
  variant: string,
  rules: string[],
  outcome: Outcome,
  change: (request: CaseRequest) => void,
  productions?: string[],
): void {
  const request = structuredClone(b.base);
  change(request);
  const id = `${b.op.id} ${parameter} ${variant}`;
  const expect = expectation(b, request, outcome);
  b.cases.push({
    id,
    operation: b.op.id,
    kind,
    parameter,
    variant,
    rules: [...new Set(rules)],
    request,
    expect,
    ...(productions ? { productions } : {}),
  });
}

/** The rules of a valid value: the parameter's own, else those of the operation's success. */
export function positiveRules(b: Builder, own: string[]): string[] {
  const checked = checkedRules(b.contract, own, b.options.mode);
  return checked.length > 0 ? checked : b.success;
}

/**
 * An invalid value is refused (a documented 4xx) where the parameter's rules say so and this run
 * checks them, or where a required parameter is missing or malformed; else only tolerated (HTTP-04).
 */
export function negative(
  b: Builder,
  own: string[],
  required: boolean,
): { rules: string[]; outcome: Outcome } {
  const checked = checkedRules(b.contract, own, b.options.mode);
  if (checked.length > 0) return { rules: checked, outcome: { refused: checked, invalid: true } };
  if (own.length === 0 && required)
    return { rules: [SHARED_RULES.malformed], outcome: { refused: 'input', invalid: true } };
  return { rules: [SHARED_RULES.malformed], outcome: 'tolerate' };
}
