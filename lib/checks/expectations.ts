import { describeMisses, expectationWarnings, judgedBody, ownerOf } from '../contract/index.ts';
import type { Check } from './types.ts';

/**
 * What the project expects beyond the interface (the contract's `x-expect`): a failure against the
 * bundled mock, which implements every decision; against a live service the client lists it as
 * drift instead, since the interface does not promise it. A body that is not JSON is judged as
 * text: an HTML error page where the project expects JSON, say. Each miss goes to the rule that
 * owns its schema node, one failure per rule.
 */
export const meetsExpectations: Check = (exchange, { contract, strict }) => {
  const op = exchange.operation;
  const mediaType = exchange.responseHeaders['content-type'] ?? '';
  const body = judgedBody(mediaType, exchange.json, exchange.text);
  if (!strict || !op || body === undefined) return undefined;
  // A body the interface's own schema refuses is that check's failure, not an expectation's.
  const base = contract.validatorFor(op.id, exchange.status, mediaType);
  if (base && exchange.json !== undefined && !base(exchange.json)) return undefined;
  const validate = contract.expectationFor(op.id, exchange.status, mediaType);
  const warnings = validate ? expectationWarnings(validate, body) : [];
  if (warnings.length === 0) return undefined;
  const found = contract.response(op.id, exchange.status);
  const byRule = new Map<string, typeof warnings>();
  for (const w of warnings) {
    const rules = ownerOf(contract, op, exchange.status, validate!.schema, w.schemaPath).join();
    byRule.set(rules, [...(byRule.get(rules) ?? []), w]);
  }
  return [...byRule].map(([rules, misses]) => ({
    check: 'meetsExpectations',
    title: 'Response misses an expectation beyond the interface',
    rules: rules ? rules.split(',') : [],
    expected: `a body that meets the x-expect of ${op.id} ${found?.key ?? exchange.status}`,
    received: describeMisses(mediaType, body, misses).join('; '),
  }));
};
