import type { Check } from './types.ts';

/** HTTP-04: no input, however malformed, is answered with a 5xx. */
export const noServerError: Check = (exchange) =>
  exchange.status >= 500
    ? {
        check: 'noServerError',
        title: 'Server error',
        rules: ['HTTP-04'],
        expected: 'a status below 500',
        received: `${exchange.status}: ${exchange.text.slice(0, 200)}`,
      }
    : undefined;
