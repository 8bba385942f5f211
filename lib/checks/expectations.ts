import { expectationWarnings } from '../contract/index.ts';
import type { Check } from './types.ts';

/**
 * What the project expects beyond the interface (the contract's `x-expect`): a failure against the
 * bundled mock, which implements every decision; against a live service the client lists it as
 * drift instead, since the interface does not promise it.
 */
export const meetsExpectations: Check = (exchange, { contract, strict }) => {
  const op = exchange.operation;
  if (!strict || !op || exchange.json === undefined) return undefined;
  const validate = contract.expectationFor(
    op.id,
    exchange.status,
    exchange.responseHeaders['content-type'] ?? '',
  );
  const warnings = validate ? expectationWarnings(validate, exchange.json) : [];
  if (warnings.length === 0) return undefined;
  const found = contract.response(op.id, exchange.status);
  return {
    check: 'meetsExpectations',
    title: 'Response misses an expectation beyond the interface',
    rules: found?.response['x-rules'] ?? op.rules,
    expected: `a body that meets the x-expect of ${op.id} ${found?.key ?? exchange.status}`,
    received: warnings.map((w) => `body${w.path} ${w.message}`).join('; '),
  };
};
