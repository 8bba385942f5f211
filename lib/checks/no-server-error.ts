import type { Check } from './types.ts';

/**
 * HTTP-04: no input, however malformed, is answered with a 5xx; nor may the request get one whose
 * status a rule states (`decides`): a 5xx is that rule's failure too.
 */
export const noServerError: Check = (exchange) =>
  exchange.status >= 500
    ? {
        check: 'noServerError',
        title: 'Server error',
        rules: [...new Set(['HTTP-04', ...(exchange.decides ?? [])])],
        expected: 'a status below 500',
        received: `${exchange.status}: ${exchange.text.slice(0, 200)}`,
      }
    : undefined;
