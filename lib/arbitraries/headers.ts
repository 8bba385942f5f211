import { baseMediaType } from '../contract/index.ts';
import fc from 'fast-check';

/** Text that can stand in a header value: visible ASCII. */
const headerText = (min: number, max: number) => fc.stringMatching(new RegExp(`^[!-~]{${min},${max}}$`));

/** An API key that is not on the whitelist. */
export function unknownKey(whitelist: readonly string[]): fc.Arbitrary<string> {
  return headerText(1, 64).filter((key) => !whitelist.includes(key));
}

/** A `Content-Type` other than `application/json` (absent when undefined). */
export function otherContentType(): fc.Arbitrary<string | undefined> {
  const token = fc.stringMatching(/^[a-z][a-z0-9.+-]{0,15}$/);
  return fc
    .oneof(
      fc.constant(undefined),
      fc.constantFrom(
        'text/plain',
        'text/html',
        'application/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        '*/*',
        'json',
        'application/jsonp',
      ),
      fc.tuple(token, token).map(([type, sub]) => `${type}/${sub}`),
    )
    .filter((value) => value === undefined || baseMediaType(value) !== 'application/json');
}

/** An `Authorization` value that carries no valid token (absent when undefined). */
export function invalidAuthorization(validTokens: readonly string[]): fc.Arbitrary<string | undefined> {
  return fc
    .oneof(
      fc.constant(undefined),
      fc.constantFrom('', 'Bearer', 'Bearer ', 'bearer', 'Basic dXNlcjpwYXNz', 'Token abc'),
      headerText(1, 64).map((token) => `Bearer ${token}`),
      headerText(1, 64),
    )
    .filter((value) => value === undefined || !validTokens.some((token) => value.includes(token)));
}

/** Keys one slip away from a whitelisted one, sent on every run before the random cases. */
export function nearKeys(whitelist: readonly string[]): string[] {
  const key = whitelist[0] ?? 'key';
  return [key.slice(0, -1), `${key}x`, key.toUpperCase(), [...key].reverse().join('')].filter(
    (k) => k !== '' && !whitelist.includes(k),
  );
}
