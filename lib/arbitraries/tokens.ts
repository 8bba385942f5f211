import fc from 'fast-check';
import { anyCodePoint } from './values.ts';

/** The characters of the feed's tokens as every `next` link shows them: base64url. */
const TOKEN_ALPHABET = /^[A-Za-z0-9_-]*$/;

/**
 * The longest token sent: 4 KiB. A URL that carries it, encoded, stays under the 8,000 octets RFC
 * 9110 §4.1 asks every recipient to support, so a 414 is no answer to it.
 */
export const LONG_TOKEN = 4_096;

/** A page token no `next` link gave, and the class of form it stands for. */
export interface TokenCase {
  form: string;
  value: string;
}

/**
 * The classes of page token drawn from the whole string space, not only spoilt real ones: each
 * is sent at least once a run. `percent-encoded` is a real token with every octet escaped, which
 * RFC 3986 §6.2.2.2 makes the same token; the rest are not tokens of the feed.
 */
export const TOKEN_CLASSES: readonly string[] = [
  'empty',
  'outside-alphabet',
  'quotes-and-spaces',
  'non-ascii',
  'control-characters',
  'percent-literal',
  'long-in-alphabet',
  'long-non-ascii',
  'percent-encoded',
];

/**
 * One page token of each class but `percent-encoded`, which needs a real token (`percentEncoded`).
 * The long non-ASCII one is 600 three-octet characters: 5,400 octets once escaped.
 */
export function foreignTokenCoverage(): TokenCase[] {
  const values: Record<string, string> = {
    empty: '',
    'outside-alphabet': 'MTQ4+/9z==',
    'quotes-and-spaces': '"MTQ4 OTk"',
    'non-ascii': 'ページ🙂',
    'control-characters': '\u0000\u0007\u001f\u007f',
    'percent-literal': '%zz%2',
    'long-in-alphabet': 'A'.repeat(LONG_TOKEN),
    'long-non-ascii': '€'.repeat(600),
  };
  return Object.entries(values).map(([form, value]) => ({ form, value }));
}

/** A token as a URL's query carries it with every octet percent-encoded, even those that need not be. */
export function percentEncoded(token: string): string {
  return [...Buffer.from(token, 'utf8')]
    .map((octet) => `%${octet.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}

/**
 * Page tokens drawn from the whole string space: text of every unit (ASCII, graphemes, any code
 * point), characters outside the tokens' alphabet, percent signs, lengths up to 4 KiB. None is in
 * the tokens' alphabet at a token's length, so none can be a token the feed gave.
 */
export function foreignToken(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string(),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: anyCodePoint, maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'+/=%.~!*\'();:@&$,? "#'), minLength: 1, maxLength: 20 }),
      fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((t) => `${t}=`),
      fc.integer({ min: 201, max: LONG_TOKEN }).map((n) => 'A'.repeat(n)),
    )
    .filter((value) => !(TOKEN_ALPHABET.test(value) && value.length > 0 && value.length <= 200));
}
