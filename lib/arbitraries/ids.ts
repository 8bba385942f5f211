import fc from 'fast-check';
import { anyCodePoint } from './values.ts';

/**
 * Identifiers a client might send by mistake: arbitrary text and unicode, percent-escapes, very long
 * values. `isValid` is the contract's check for the parameter, so valid ones are left out; so are
 * values a URL would rewrite away (`.`, `..`, empty).
 */
export function invalidIdentifier(isValid: (value: string) => boolean): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ minLength: 1 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
      fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 30 }),
      fc.uuid().map((u) => u.replaceAll('-', '')),
      fc.uuid().map((u) => `${u}x`),
      fc.string({ minLength: 1, maxLength: 10 }).map((s) => `%${s}`),
      fc.string({ minLength: 500, maxLength: 2_000 }),
    )
    .filter((value) => !isValid(value) && value.trim() !== '' && value !== '.' && value !== '..');
}

/** A UUID-shaped identifier, almost surely naming nothing. */
export function unknownUuid(): fc.Arbitrary<string> {
  return fc.uuid({ version: 4 });
}

/** Identifiers one slip away from a UUID, sent on every run before the random cases. */
export function nearUuids(): string[] {
  const uuid = '7348edd8-0403-11de-845b-000077b07658';
  return [
    uuid.slice(0, -1),
    `${uuid}0`,
    uuid.replaceAll('-', ''),
    `{${uuid}}`,
    uuid.replace('7348', '734g'),
    uuid.replace('-0403', '0403-'),
    'not-a-uuid',
  ];
}
