import { baseMediaType, ownerOf } from '../contract/index.ts';
import { brokenKeywords } from './schema-errors.ts';
import type { Check, CheckFailure } from './types.ts';

/**
 * The body is valid against the contract's schema for the operation, status and media type. Each
 * broken keyword goes to the rule that owns its schema node: one failure per rule and place.
 */
export const bodyMatchesSchema: Check = (exchange, { contract }) => {
  const op = exchange.operation;
  if (!op) return undefined;
  const mediaType = exchange.responseHeaders['content-type'] ?? '';
  const validate = contract.validatorFor(op.id, exchange.status, mediaType);
  if (!validate || !mediaType.includes('json')) return undefined;
  if (exchange.json === undefined)
    return {
      check: 'bodyMatchesSchema',
      title: 'Response body is not JSON',
      rules: ['HTTP-01'],
      expected: 'a JSON body',
      received: exchange.text.slice(0, 200) || '(empty body)',
    };
  if (validate(exchange.json)) return undefined;
  const found = contract.response(op.id, exchange.status);
  const expected = `a body valid against ${op.id} ${found?.key ?? exchange.status} ${baseMediaType(mediaType)}`;
  const failures = new Map<string, CheckFailure>();
  for (const broken of brokenKeywords(validate.errors ?? [], exchange.json)) {
    const rules = ownerOf(contract, op, exchange.status, validate.schema, broken.schemaPath);
    const key = `${rules.join()} ${broken.place}`;
    const same = failures.get(key);
    if (same) same.received += `; ${broken.text}`;
    else
      failures.set(key, {
        check: 'bodyMatchesSchema',
        title: broken.text,
        rules,
        expected,
        received: broken.text,
        place: broken.place,
      });
  }
  return [...failures.values()];
};
