import type { Location } from './document.ts';
import type { Schema, SchemaReader } from './normalize.ts';
import type { WrittenId } from './other-rules.ts';
import type { Place } from './rules.ts';
import type { SchemaKind } from './schema-rules.ts';

export { LEVELS, type Direction, type Level, type Rule } from './levels.ts';

/** What a schema comparison reports: a kind of schema change, or one of this contract's own rules. */
export type ReportedKind = SchemaKind | WrittenId;

/** Where in the contract a comparison is, and on which side of the wire. */
export interface SchemaContext {
  side: 'request' | 'response';
  /** The rule places for the schema at the top and for one nested in it. */
  places: readonly [Place, Place];
  /** The operation and what in it: "response 200 (application/json)". */
  label: string;
  /** The property path inside the schema: `items[].name`. */
  field: string;
  nested: boolean;
  where: Location;
  /** The pairs of schemas compared so far, and in the order met (see `QuietPairs`). */
  seen: Set<string>;
  trail: string[];
  /** The property names a required name may refer to (see `SchemaComparer.compare`). */
  described?: ReadonlySet<string>;
  /** Whether the schema is a condition's or an alternative's, whose names may be its parent's. */
  inside?: boolean;
  /** The schema being compared is such a part: a name it requires is its parent's to describe. */
  part?: boolean;
  /** Inside a `not`: a change that widens the inner schema narrows the outer one. */
  negated?: boolean;
  /**
   * How values travel when not as JSON. `text` (parameters, headers, text bodies): every value is
   * text, so a string admits what any other type would. `xml`: the same, and an object and a string
   * describe the same XML text.
   */
  carrier?: 'text' | 'xml';
}

export interface SchemaChangeSink {
  (kind: ReportedKind, context: SchemaContext, where: Location, text: string): void;
}

/** A subschema keyword: its kinds when it appears and when it goes. */
export interface Slot {
  keyword: string;
  added: SchemaKind;
  removed: SchemaKind;
  /** How its path reads inside the field: `[]` for items. */
  suffix?: string;
}

/**
 * What the parts of a schema comparison (objects, combiners) need of it: both readers, a way to
 * report a change, and the comparison itself for subschemas.
 */
export interface Comparison {
  readonly base: SchemaReader;
  readonly rev: SchemaReader;
  emit(kind: ReportedKind, context: SchemaContext, where: Location, text: string): void;
  at(where: Location, ...keys: (string | number)[]): Location;
  child(context: SchemaContext, field: string, where: Location): SchemaContext;
  compare(baseNode: unknown, revNode: unknown, context: SchemaContext): void;
  slot(
    slot: Slot,
    baseNode: unknown,
    revNode: unknown,
    context: SchemaContext,
    field?: string,
    path?: (string | number)[],
  ): void;
}

/** One finding of a keyword comparison: the kind of change, the keyword, and what happened. */
export interface KeywordChange {
  kind: ReportedKind;
  keyword: string;
  text: string;
}

export type { Schema };
