import type { Level } from './types.ts';

/** The levels of a change by side: [in a request, in a response]. */
export type Sides = readonly [Level, Level];

/** Fewer values are valid: a request loses some the clients send; a response only sends fewer. */
const NARROW: Sides = ['error', 'info'];
/** More values are valid: a request accepts more; a response may send what clients cannot read. */
const WIDEN: Sides = ['info', 'error'];
/** Some values lose validity and others gain it: breaks both sides. */
const CHANGE: Sides = ['error', 'error'];
const SAFE: Sides = ['info', 'info'];
const RISKY: Sides = ['warning', 'warning'];
/** Safe for a request; a response may hold what a reader does not expect. */
const READER_RISK: Sides = ['info', 'warning'];
/** A risk for a request; safe for a response. */
const WRITER_RISK: Sides = ['warning', 'info'];

type Kind = readonly [id: string, sides: Sides, reason: string];

/** Each bound of a schema, and how a reason names it. */
const BOUNDS: [kind: string, name: string][] = [
  ['max', 'maximum'],
  ['min', 'minimum'],
  ['exclusive-max', 'exclusive maximum'],
  ['exclusive-min', 'exclusive minimum'],
  ['max-length', 'maximum length'],
  ['min-length', 'minimum length'],
  ['max-items', 'maximum number of items'],
  ['min-items', 'minimum number of items'],
  ['max-properties', 'maximum number of properties'],
  ['min-properties', 'minimum number of properties'],
  ['max-contains', 'maximum number of matching items'],
  ['min-contains', 'minimum number of matching items'],
];

/** A bound raised, lowered, set or unset: which of them narrows depends on whether it is upper. */
function bounds(kind: string, name: string): Kind[] {
  const upper = kind.startsWith('max') || kind === 'exclusive-max';
  const [raise, lower] = upper ? [WIDEN, NARROW] : [NARROW, WIDEN];
  return [
    [`${kind}-increased`, raise, `the ${name} was raised`],
    [`${kind}-decreased`, lower, `the ${name} was lowered`],
    [`${kind}-set`, NARROW, `a ${name} now applies`],
    [`${kind}-unset`, WIDEN, `the ${name} no longer applies`],
  ];
}

/**
 * Every kind of schema change, with its effect on the values a schema admits: the rule table
 * places each on both sides of the wire.
 */
const KINDS: Kind[] = [
  ['type-generalized', WIDEN, 'the type now admits more values (a type added, integer to number)'],
  ['type-specialized', NARROW, 'the type now admits fewer values (a type removed, number to integer)'],
  ['type-changed', CHANGE, 'the type changed to one that shares no values with the old'],
  ['became-nullable', WIDEN, 'null is now a valid value'],
  ['became-not-nullable', NARROW, 'null is no longer a valid value'],
  ['format-added', NARROW, 'a format now restricts the values'],
  ['format-removed', WIDEN, 'the format no longer restricts the values'],
  ['format-generalized', WIDEN, 'the format admits more values (int32 to int64, float to double)'],
  ['format-specialized', NARROW, 'the format admits fewer values (int64 to int32, double to float)'],
  ['format-changed', CHANGE, 'the format changed to another'],
  ['became-enum', NARROW, 'the values are now limited to a list'],
  ['enum-removed', WIDEN, 'the values are no longer limited to a list'],
  ['enum-value-added', WIDEN, 'a value joined the list of valid values'],
  ['enum-value-removed', NARROW, 'a value left the list of valid values'],
  ['x-extensible-enum-value-added', SAFE, 'an extensible enum gained a value: its readers expect new ones'],
  ['x-extensible-enum-value-removed', NARROW, 'an extensible enum lost a value: a request sending it fails'],
  ['const-added', NARROW, 'one value is now the only valid one'],
  ['const-removed', WIDEN, 'the value is no longer fixed'],
  ['const-changed', CHANGE, 'the one valid value changed'],
  ['default-added', WRITER_RISK, 'a server now assumes a value when none is sent'],
  ['default-changed', WRITER_RISK, 'a server assumes another value when none is sent'],
  ['default-removed', WRITER_RISK, 'a server no longer assumes a value when none is sent'],
  ['pattern-added', NARROW, 'a pattern now restricts the values'],
  ['pattern-removed', READER_RISK, 'the pattern no longer restricts the values'],
  ['pattern-generalized', READER_RISK, 'the pattern now matches anything'],
  ['pattern-changed', RISKY, 'the pattern changed: some values may match one and not the other'],
  ...BOUNDS.flatMap(([kind, name]) => bounds(kind, name)),
  ['multiple-of-set', NARROW, 'values must now be a multiple of a number'],
  ['multiple-of-unset', WIDEN, 'values no longer need to be a multiple of a number'],
  ['multiple-of-increased', NARROW, 'values must be a multiple of a multiple of the old divisor'],
  ['multiple-of-decreased', WIDEN, 'the divisor divides the old one: more values are multiples'],
  ['multiple-of-changed', CHANGE, 'the divisor changed to one unrelated to the old'],
  ['unique-items-set', NARROW, 'items must now be unique'],
  ['unique-items-unset', WIDEN, 'items no longer need to be unique'],
  ['property-added', SAFE, 'an optional property was added: readers tolerate new fields'],
  ['required-property-added', ['error', 'info'], 'a new property must be sent'],
  ['property-removed', RISKY, 'an optional property was removed: who sends or reads it loses it'],
  ['required-property-removed', ['warning', 'error'], 'a required property was removed: readers rely on it'],
  ['property-became-required', ['error', 'info'], 'a property must now be present'],
  ['property-became-optional', ['info', 'error'], 'a property may now be absent'],
  ['property-became-read-only', SAFE, 'a property is now only sent by the server'],
  ['required-property-became-read-only', WRITER_RISK, 'a required property is now only sent by the server'],
  ['property-became-not-read-only', SAFE, 'an optional property may now be sent by clients'],
  ['required-property-became-not-read-only', NARROW, 'clients must now send a property the server filled'],
  ['property-became-write-only', READER_RISK, 'an optional property is no longer returned'],
  ['required-property-became-write-only', READER_RISK, 'a required property is no longer returned'],
  ['required-property-became-not-write-only', SAFE, 'a required property is now returned too'],
  ['property-became-not-write-only', SAFE, 'a property is now returned too'],
  ['additional-properties-closed', NARROW, 'properties not listed are now refused or limited'],
  ['additional-properties-opened', WIDEN, 'properties not listed are now allowed'],
  ['unevaluated-properties-added', NARROW, 'properties no subschema names are now refused or limited'],
  ['unevaluated-properties-removed', WIDEN, 'properties no subschema names are now allowed'],
  ['unevaluated-items-added', NARROW, 'items no subschema covers are now refused or limited'],
  ['unevaluated-items-removed', WIDEN, 'items no subschema covers are now allowed'],
  ['items-added', NARROW, 'the items of the array are now constrained'],
  ['items-removed', WIDEN, 'the items of the array are no longer constrained'],
  ['prefix-items-added', NARROW, 'an item at a position is now constrained'],
  ['prefix-items-removed', WIDEN, 'an item at a position is no longer constrained'],
  ['tuple-lengthened', WIDEN, 'a closed tuple (items: false) admits one more item'],
  ['tuple-shortened', NARROW, 'a closed tuple (items: false) admits one item fewer'],
  ['contains-added', NARROW, 'the array must now contain a matching item'],
  ['contains-removed', WIDEN, 'the array no longer needs a matching item'],
  ['property-names-added', NARROW, 'property names are now constrained'],
  ['property-names-removed', WIDEN, 'property names are no longer constrained'],
  ['pattern-property-added', NARROW, 'properties whose names match a pattern are now constrained'],
  ['pattern-property-removed', WIDEN, 'properties whose names match a pattern are no longer constrained'],
  ['dependent-required-added', NARROW, 'a property now requires others'],
  ['dependent-required-removed', WIDEN, 'a property no longer requires others'],
  ['dependent-required-changed', CHANGE, 'the properties another requires changed'],
  ['dependent-schema-added', NARROW, 'a property now brings a schema the object must meet'],
  ['dependent-schema-removed', WIDEN, 'a property no longer brings a schema'],
  ['if-added', NARROW, 'a condition now applies then or else'],
  ['if-removed', WIDEN, 'a condition no longer applies'],
  ['if-changed', CHANGE, 'the condition changed: other values take then or else'],
  ['then-added', NARROW, 'values that meet the condition are now constrained'],
  ['then-removed', WIDEN, 'values that meet the condition are no longer constrained'],
  ['else-added', NARROW, 'values that fail the condition are now constrained'],
  ['else-removed', WIDEN, 'values that fail the condition are no longer constrained'],
  ['not-added', NARROW, 'values matching a schema are now refused'],
  ['not-removed', WIDEN, 'values matching a schema are no longer refused'],
  ['one-of-added', NARROW, 'the value must now match exactly one of several schemas'],
  ['one-of-removed', WIDEN, 'the value no longer needs to match one of several schemas'],
  ['one-of-branch-added', WIDEN, 'oneOf gained an alternative'],
  ['one-of-branch-added-overlapping', CHANGE, 'oneOf gained an overlapping alternative: values in both fail'],
  ['one-of-branch-removed', NARROW, 'oneOf lost an alternative'],
  ['any-of-added', NARROW, 'the value must now match one of several schemas'],
  ['any-of-removed', WIDEN, 'the value no longer needs to match one of several schemas'],
  ['any-of-branch-added', READER_RISK, 'anyOf gained an alternative: a reader may meet a new shape'],
  ['any-of-branch-removed', NARROW, 'anyOf lost an alternative'],
  ['all-of-branch-added', NARROW, 'allOf gained a schema the value must also meet'],
  ['all-of-branch-removed', WIDEN, 'allOf lost a schema the value had to meet'],
  ['discriminator-added', SAFE, 'a discriminator now names the alternative'],
  ['discriminator-removed', RISKY, 'no discriminator names the alternative any more'],
  ['discriminator-property-name-changed', CHANGE, 'the alternative is named by another property'],
  ['discriminator-mapping-added', READER_RISK, 'a discriminator value was mapped'],
  ['discriminator-mapping-removed', WRITER_RISK, 'a discriminator value is no longer mapped'],
  ['discriminator-mapping-changed', RISKY, 'a discriminator value maps to another schema'],
  ['content-media-type-changed', CHANGE, 'the string carries another media type'],
  ['content-encoding-changed', CHANGE, 'the string is encoded another way'],
  ['content-schema-added', NARROW, 'the string content is now constrained'],
  ['content-schema-removed', WIDEN, 'the string content is no longer constrained'],
  ['property-deprecated', SAFE, 'a property was marked deprecated'],
  ['property-reactivated', SAFE, 'a property is no longer deprecated'],
  ['annotation-changed', SAFE, 'a title, description, example or comment changed: no value changes'],
  ['extension-changed', SAFE, 'a vendor extension (x-…) changed: no value changes'],
  ['type-compatible', SAFE, 'an XML body read as an object or as a string: the same text on the wire'],
  ['sunset-removed', CHANGE, 'a deprecated property lost its sunset date'],
  ['sunset-invalid', CHANGE, 'a sunset date (x-sunset) that is not a date'],
  ['stability-decreased', CHANGE, 'the stability level (x-stability-level) went down'],
  ['stability-increased', SAFE, 'the stability level (x-stability-level) went up'],
  ['stability-invalid', CHANGE, 'a stability level (x-stability-level) not draft, alpha, beta or stable'],
  ['keyword-changed', RISKY, 'a keyword this gate does not know changed: read it'],
  ['reference-unresolved', RISKY, 'a $ref that cannot be resolved changed: read it'],
];

/** Word pairs whose swap turns a kind of change into its opposite. */
const OPPOSITES: [string, string][] = [
  ['became-not-nullable', 'became-nullable'],
  ['became-enum', 'enum-removed'],
  ['became-required', 'became-optional'],
  ['increased', 'decreased'],
  ['generalized', 'specialized'],
  ['closed', 'opened'],
  ['unset', 'set'],
  ['removed', 'added'],
];

/**
 * The opposite of a kind of change (`max-increased` for `max-decreased`): inside `not`, what the
 * inner schema admits more of, the outer one refuses. A kind with no opposite is its own.
 */
export function oppositeKind(kind: string): string {
  for (const [a, b] of OPPOSITES) {
    if (kind.endsWith(a)) return `${kind.slice(0, -a.length)}${b}`;
    if (kind.endsWith(b)) return `${kind.slice(0, -b.length)}${a}`;
  }
  return kind;
}

export const SCHEMA_KINDS: ReadonlyMap<string, { sides: Sides; reason: string }> = new Map(
  KINDS.map(([id, sides, reason]) => [id, { sides, reason }]),
);
