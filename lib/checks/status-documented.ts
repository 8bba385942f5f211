import { negotiationRules } from '../contract/index.ts';
import type { Check } from './types.ts';

/** The status is one the contract documents for the operation. */
export const statusDocumented: Check = (exchange, { contract }) => {
  const op = exchange.operation;
  if (!op || (exchange.status >= 300 && exchange.status < 400)) return undefined;
  if (contract.response(op.id, exchange.status)) return undefined;
  return {
    check: 'statusDocumented',
    title: 'Undocumented HTTP status code',
    // Belongs to no one rule (the test that made the request decides which rule failed), but a 406:
    // no form its Accept admits is the document's negotiation.
    rules: exchange.status === 406 ? negotiationRules(contract, op) : [],
    expected: `one of ${contract.documentedStatuses(op.id).join(', ')} for ${op.id}`,
    received: String(exchange.status),
  };
};
