import { describeMisses, expectationWarnings, judgedBody } from '../contract/index.ts';
import type { Check } from './types.ts';

/**
 * What the project expects beyond the interface (the contract's `x-expect`): a failure against the
 * bundled mock, which implements every decision; against a live service the client lists it as
 * drift instead, since the interface does not promise it. A body that is not JSON is judged as
 * text: an HTML error page where the project expects JSON, say.
 */
export const meetsExpectations: Check = (exchange, { contract, strict }) => {
  const op = exchange.operation;
  const mediaType = exchange.responseHeaders['content-type'] ?? '';
  const body = judgedBody(mediaType, exchange.json, exchange.text);
  if (!strict || !op || body === undefined) return undefined;
  const validate = contract.expectationFor(op.id, exchange.status, mediaType);
  const warnings = validate ? expectationWarnings(validate, body) : [];
  if (warnings.length === 0) return undefined;
  const found = contract.response(op.id, exchange.status);
  return {
    check: 'meetsExpectations',
    title: 'Response misses an expectation beyond the interface',
    rules: found?.response['x-rules'] ?? op.rules,
    expected: `a body that meets the x-expect of ${op.id} ${found?.key ?? exchange.status}`,
    received: describeMisses(mediaType, body, warnings).join('; '),
  };
};
