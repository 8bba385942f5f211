import { baseMediaType } from '../contract/index.ts';
import type { Check } from './types.ts';

/**
 * HTTP-01: the response's media type is one the contract documents for the status (JSON for every
 * response of the main service); a request no operation matches is answered as its service answers
 * errors (JSON; the image service may answer HTML).
 */
export const contentTypeDocumented: Check = (exchange, { contract }) => {
  // A redirect, or a 204 (an OPTIONS answer, say), has no content to type.
  if ((exchange.status >= 300 && exchange.status < 400) || exchange.status === 204) return undefined;
  const received = baseMediaType(exchange.responseHeaders['content-type']);
  const op = exchange.operation;
  const response = op ? contract.response(op.id, exchange.status)?.response : undefined;
  const documented = op
    ? Object.keys(response?.content ?? {})
    : contract.errorMediaTypes(exchange.document ?? 'main');
  if (documented.length === 0 || documented.includes(received)) return undefined;
  // HTTP-01 leaves the image service aside: there, the rule of the response owns its media type.
  const own = exchange.document === 'images' ? (response?.['x-rules'] ?? []) : [];
  return {
    check: 'contentTypeDocumented',
    title: 'Undocumented Content-Type',
    rules: own.length ? own : ['HTTP-01'],
    expected: documented.join(' or '),
    received: received || '(no Content-Type)',
  };
};
