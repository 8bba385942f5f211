import { baseMediaType, ajv } from '../contract/index.ts';
import type { Check } from './types.ts';

const schemaRules = (schema: unknown): string[] | undefined =>
  typeof schema === 'object' && schema !== null && 'x-rules' in schema
    ? (schema['x-rules'] as string[])
    : undefined;

/** The body is valid against the contract's schema for the operation, status and media type. */
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
  return {
    check: 'bodyMatchesSchema',
    title: 'Response violates schema',
    // The rules of the response, else of its schema, else of the operation: the narrowest that apply.
    rules: found?.response['x-rules'] ?? schemaRules(validate.schema) ?? op.rules,
    expected: `a body valid against ${op.id} ${found?.key ?? exchange.status} ${baseMediaType(mediaType)}`,
    received: ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' }),
  };
};
