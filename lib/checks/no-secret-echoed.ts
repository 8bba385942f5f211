import type { Check } from './types.ts';

/** AUTH-07: a key or token never comes back, in a header or in the body. */
export const noSecretEchoed: Check = (exchange, { secrets }) => {
  const headers = Object.entries(exchange.responseHeaders).map(([k, v]) => `${k}: ${v}`);
  const texts = [exchange.text, ...headers];
  const found = secrets.find((secret) => texts.some((text) => text.includes(secret)));
  if (!found) return undefined;
  const where = exchange.text.includes(found) ? 'the body' : 'a header';
  return {
    check: 'noSecretEchoed',
    title: 'Key or token echoed in the response',
    rules: ['AUTH-07'],
    expected: 'no key or token in the response',
    received: `a secret sent with the request came back in ${where}`,
  };
};
