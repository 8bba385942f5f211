import type { Level } from './levels.ts';

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

/** The module that emits a kind: each row of the table names it, and a self-test reads it there. */
const KEYWORDS = 'lib/spec-diff/keywords.ts';
const BOUNDS_FILE = 'lib/spec-diff/bounds.ts';
const OBJECTS = 'lib/spec-diff/objects.ts';
const COMBINERS = 'lib/spec-diff/combiners.ts';
const SCHEMA = 'lib/spec-diff/schema.ts';
const LIFECYCLE = 'lib/spec-diff/lifecycle.ts';

type Row = readonly [id: string, sides: Sides, emitted: string, reason: string];

/** Each bound of a schema, and how a reason names it. */
const BOUNDS = [
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
] as const;
export type BoundStem = (typeof BOUNDS)[number][0];
type BoundKind = `${BoundStem}-${'increased' | 'decreased' | 'set' | 'unset'}`;

/** A bound raised, lowered, set or unset: which of them narrows depends on whether it is upper. */
function bounds([kind, name]: (typeof BOUNDS)[number]): (readonly [BoundKind, Sides, string, string])[] {
  const upper = kind.startsWith('max') || kind === 'exclusive-max';
  const [raise, lower] = upper ? [WIDEN, NARROW] : [NARROW, WIDEN];
  return [
    [`${kind}-increased`, raise, BOUNDS_FILE, `the ${name} was raised`],
    [`${kind}-decreased`, lower, BOUNDS_FILE, `the ${name} was lowered`],
    [`${kind}-set`, NARROW, BOUNDS_FILE, `a ${name} now applies`],
    [`${kind}-unset`, WIDEN, BOUNDS_FILE, `the ${name} no longer applies`],
  ];
}

/**
 * Every kind of schema change, with its effect on the values a schema admits: the rule table
 * places each on both sides of the wire.
 */
// prettier-ignore
const KINDS = [
  ['type-generalized', WIDEN, KEYWORDS, 'the type now admits more values (a type added, integer to number)'],
  ['type-specialized', NARROW, KEYWORDS, 'the type now admits fewer values (a type removed, number to integer)'],
  ['type-changed', CHANGE, KEYWORDS, 'the type changed to one that shares no values with the old'],
  ['became-nullable', WIDEN, KEYWORDS, 'null is now a valid value'],
  ['became-not-nullable', NARROW, KEYWORDS, 'null is no longer a valid value'],
  ['format-added', NARROW, KEYWORDS, 'a format now restricts the values'],
  ['format-removed', WIDEN, KEYWORDS, 'the format no longer restricts the values'],
  ['format-generalized', WIDEN, KEYWORDS, 'the format admits more values (int32 to int64, float to double)'],
  ['format-specialized', NARROW, KEYWORDS, 'the format admits fewer values (int64 to int32, double to float)'],
  ['format-changed', CHANGE, KEYWORDS, 'the format changed to another'],
  ['became-enum', NARROW, KEYWORDS, 'the values are now limited to a list'],
  ['enum-removed', WIDEN, KEYWORDS, 'the values are no longer limited to a list'],
  ['enum-value-added', WIDEN, KEYWORDS, 'a value joined the list of valid values'],
  ['enum-value-removed', NARROW, KEYWORDS, 'a value left the list of valid values'],
  ['x-extensible-enum-value-added', SAFE, KEYWORDS, 'an extensible enum gained a value: its readers expect new ones'],
  ['x-extensible-enum-value-removed', NARROW, KEYWORDS, 'an extensible enum lost a value: a request sending it fails'],
  ['const-added', NARROW, KEYWORDS, 'one value is now the only valid one'],
  ['const-removed', WIDEN, KEYWORDS, 'the value is no longer fixed'],
  ['const-changed', CHANGE, KEYWORDS, 'the one valid value changed'],
  ['default-added', WRITER_RISK, KEYWORDS, 'a server now assumes a value when none is sent'],
  ['default-changed', WRITER_RISK, KEYWORDS, 'a server assumes another value when none is sent'],
  ['default-removed', WRITER_RISK, KEYWORDS, 'a server no longer assumes a value when none is sent'],
  ['pattern-added', NARROW, KEYWORDS, 'a pattern now restricts the values'],
  ['pattern-removed', READER_RISK, KEYWORDS, 'the pattern no longer restricts the values'],
  ['pattern-generalized', READER_RISK, KEYWORDS, 'the pattern now matches anything'],
  ['pattern-changed', RISKY, KEYWORDS, 'the pattern changed: some values may match one and not the other'],
  ['multiple-of-set', NARROW, BOUNDS_FILE, 'values must now be a multiple of a number'],
  ['multiple-of-unset', WIDEN, BOUNDS_FILE, 'values no longer need to be a multiple of a number'],
  ['multiple-of-increased', NARROW, BOUNDS_FILE, 'values must be a multiple of a multiple of the old divisor'],
  ['multiple-of-decreased', WIDEN, BOUNDS_FILE, 'the divisor divides the old one: more values are multiples'],
  ['multiple-of-changed', CHANGE, BOUNDS_FILE, 'the divisor changed to one unrelated to the old'],
  ['unique-items-set', NARROW, BOUNDS_FILE, 'items must now be unique'],
  ['unique-items-unset', WIDEN, BOUNDS_FILE, 'items no longer need to be unique'],
  ['property-added', SAFE, OBJECTS, 'an optional property was added: readers tolerate new fields'],
  ['required-property-added', ['error', 'info'], OBJECTS, 'a new property must be sent'],
  ['property-removed', RISKY, OBJECTS, 'an optional property was removed: who sends or reads it loses it'],
  ['required-property-removed', ['warning', 'error'], OBJECTS, 'a required property was removed: readers rely on it'],
  ['property-became-required', ['error', 'info'], OBJECTS, 'a property must now be present'],
  ['property-became-optional', ['info', 'error'], OBJECTS, 'a property may now be absent'],
  ['property-became-read-only', SAFE, OBJECTS, 'a property is now only sent by the server'],
  ['required-property-became-read-only', WRITER_RISK, OBJECTS, 'a required property is now only sent by the server'],
  ['property-became-not-read-only', SAFE, OBJECTS, 'an optional property may now be sent by clients'],
  ['required-property-became-not-read-only', NARROW, OBJECTS, 'clients must now send a property the server filled'],
  ['property-became-write-only', READER_RISK, OBJECTS, 'an optional property is no longer returned'],
  ['required-property-became-write-only', READER_RISK, OBJECTS, 'a required property is no longer returned'],
  ['required-property-became-not-write-only', SAFE, OBJECTS, 'a required property is now returned too'],
  ['property-became-not-write-only', SAFE, OBJECTS, 'a property is now returned too'],
  ['additional-properties-closed', NARROW, OBJECTS, 'properties not listed are now refused or limited'],
  ['additional-properties-opened', WIDEN, OBJECTS, 'properties not listed are now allowed'],
  ['unevaluated-properties-added', NARROW, OBJECTS, 'properties no subschema names are now refused or limited'],
  ['unevaluated-properties-removed', WIDEN, OBJECTS, 'properties no subschema names are now allowed'],
  ['unevaluated-items-added', NARROW, SCHEMA, 'items no subschema covers are now refused or limited'],
  ['unevaluated-items-removed', WIDEN, SCHEMA, 'items no subschema covers are now allowed'],
  ['items-added', NARROW, SCHEMA, 'the items of the array are now constrained'],
  ['items-removed', WIDEN, SCHEMA, 'the items of the array are no longer constrained'],
  ['prefix-items-added', NARROW, SCHEMA, 'an item at a position is now constrained'],
  ['prefix-items-removed', WIDEN, SCHEMA, 'an item at a position is no longer constrained'],
  ['tuple-lengthened', WIDEN, SCHEMA, 'a closed tuple (items: false) admits one more item'],
  ['tuple-shortened', NARROW, SCHEMA, 'a closed tuple (items: false) admits one item fewer'],
  ['contains-added', NARROW, SCHEMA, 'the array must now contain a matching item'],
  ['contains-removed', WIDEN, SCHEMA, 'the array no longer needs a matching item'],
  ['property-names-added', NARROW, OBJECTS, 'property names are now constrained'],
  ['property-names-removed', WIDEN, OBJECTS, 'property names are no longer constrained'],
  ['pattern-property-added', NARROW, OBJECTS, 'properties whose names match a pattern are now constrained'],
  ['pattern-property-removed', WIDEN, OBJECTS, 'properties whose names match a pattern are no longer constrained'],
  ['dependent-required-added', NARROW, OBJECTS, 'a property now requires others'],
  ['dependent-required-removed', WIDEN, OBJECTS, 'a property no longer requires others'],
  ['dependent-required-changed', CHANGE, OBJECTS, 'the properties another requires changed'],
  ['dependent-schema-added', NARROW, OBJECTS, 'a property now brings a schema the object must meet'],
  ['dependent-schema-removed', WIDEN, OBJECTS, 'a property no longer brings a schema'],
  ['if-added', NARROW, SCHEMA, 'a condition now applies then or else'],
  ['if-removed', WIDEN, SCHEMA, 'a condition no longer applies'],
  ['if-changed', CHANGE, SCHEMA, 'the condition changed: other values take then or else'],
  ['then-added', NARROW, SCHEMA, 'values that meet the condition are now constrained'],
  ['then-removed', WIDEN, SCHEMA, 'values that meet the condition are no longer constrained'],
  ['else-added', NARROW, SCHEMA, 'values that fail the condition are now constrained'],
  ['else-removed', WIDEN, SCHEMA, 'values that fail the condition are no longer constrained'],
  ['not-added', NARROW, SCHEMA, 'values matching a schema are now refused'],
  ['not-removed', WIDEN, SCHEMA, 'values matching a schema are no longer refused'],
  ['one-of-added', NARROW, COMBINERS, 'the value must now match exactly one of several schemas'],
  ['one-of-removed', WIDEN, COMBINERS, 'the value no longer needs to match one of several schemas'],
  ['one-of-branch-added', WIDEN, COMBINERS, 'oneOf gained an alternative'],
  ['one-of-branch-added-overlapping', CHANGE, COMBINERS, 'oneOf gained an overlapping alternative: values in both fail'],
  ['one-of-branch-removed', NARROW, COMBINERS, 'oneOf lost an alternative'],
  ['any-of-added', NARROW, COMBINERS, 'the value must now match one of several schemas'],
  ['any-of-removed', WIDEN, COMBINERS, 'the value no longer needs to match one of several schemas'],
  ['any-of-branch-added', READER_RISK, COMBINERS, 'anyOf gained an alternative: a reader may meet a new shape'],
  ['any-of-branch-removed', NARROW, COMBINERS, 'anyOf lost an alternative'],
  ['all-of-branch-added', NARROW, COMBINERS, 'allOf gained a schema the value must also meet'],
  ['all-of-branch-removed', WIDEN, COMBINERS, 'allOf lost a schema the value had to meet'],
  ['discriminator-added', SAFE, COMBINERS, 'a discriminator now names the alternative'],
  ['discriminator-removed', RISKY, COMBINERS, 'no discriminator names the alternative any more'],
  ['discriminator-property-name-changed', CHANGE, COMBINERS, 'the alternative is named by another property'],
  ['discriminator-mapping-added', READER_RISK, COMBINERS, 'a discriminator value was mapped'],
  ['discriminator-mapping-removed', WRITER_RISK, COMBINERS, 'a discriminator value is no longer mapped'],
  ['discriminator-mapping-changed', RISKY, COMBINERS, 'a discriminator value maps to another schema'],
  ['content-media-type-changed', CHANGE, KEYWORDS, 'the string carries another media type'],
  ['content-encoding-changed', CHANGE, KEYWORDS, 'the string is encoded another way'],
  ['content-schema-added', NARROW, SCHEMA, 'the string content is now constrained'],
  ['content-schema-removed', WIDEN, SCHEMA, 'the string content is no longer constrained'],
  ['property-deprecated', SAFE, KEYWORDS, 'a property was marked deprecated'],
  ['property-reactivated', SAFE, KEYWORDS, 'a property is no longer deprecated'],
  ['annotation-changed', SAFE, SCHEMA, 'a title, description, example or comment changed: no value changes'],
  ['extension-changed', SAFE, SCHEMA, 'a vendor extension (x-…) changed: no value changes'],
  ['type-compatible', SAFE, KEYWORDS, 'an XML body read as an object or as a string: the same text on the wire'],
  ['sunset-removed', CHANGE, LIFECYCLE, 'a deprecated property lost its sunset date'],
  ['sunset-invalid', CHANGE, LIFECYCLE, 'a sunset date (x-sunset) that is not a date'],
  ['stability-decreased', CHANGE, LIFECYCLE, 'the stability level (x-stability-level) went down'],
  ['stability-increased', SAFE, LIFECYCLE, 'the stability level (x-stability-level) went up'],
  ['stability-invalid', CHANGE, LIFECYCLE, 'a stability level (x-stability-level) not draft, alpha, beta or stable'],
  ['inapplicable-keyword-changed', SAFE, KEYWORDS, 'a keyword of a type the schema does not admit changed (`minItems` on a string): it constrains no value'],
  ['keyword-changed', RISKY, SCHEMA, 'a keyword this gate does not know changed: read it'],
  ['reference-unresolved', RISKY, SCHEMA, 'a $ref that cannot be resolved changed: read it'],
] as const satisfies readonly Row[];

/** A kind of schema change: the rule table places each on every place a schema sits. */
export type SchemaKind = (typeof KINDS)[number][0] | BoundKind;

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
export function oppositeKind(kind: SchemaKind): SchemaKind {
  for (const [a, b] of OPPOSITES) {
    const swapped = kind.endsWith(a)
      ? `${kind.slice(0, -a.length)}${b}`
      : kind.endsWith(b)
        ? `${kind.slice(0, -b.length)}${a}`
        : undefined;
    if (swapped !== undefined) return isSchemaKind(swapped) ? swapped : kind;
  }
  return kind;
}

/** Every kind with its levels by side, the module that emits it and its reason, in table order. */
export const SCHEMA_KINDS: ReadonlyMap<SchemaKind, { sides: Sides; emitted: string; reason: string }> =
  new Map(
    [...KINDS, ...BOUNDS.flatMap(bounds)].map(([id, sides, emitted, reason]) => [
      id,
      { sides, emitted, reason },
    ]),
  );

export const isSchemaKind = (kind: string): kind is SchemaKind => SCHEMA_KINDS.has(kind as SchemaKind);
