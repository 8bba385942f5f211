import type { Location, SpecDocument } from './document.ts';
import { escapePointer } from './document.ts';
import { BOUND_KEYWORDS, compareBounds } from './bounds.ts';
import {
  compareContent,
  compareContract,
  compareDeprecated,
  compareFormat,
  compareTypes,
  compareValues,
  inapplicable,
  inapplicableOfType,
  type KeywordChange,
} from './keywords.ts';
import { ANNOTATIONS, same, typeList, type Schema, type SchemaReader } from './normalize.ts';
import { compareCombiner, compareDiscriminator, compareWrapped } from './combiners.ts';
import { compareObject } from './objects.ts';
import { QuietPairs } from './quiet.ts';
import type { Comparison, ReportedKind, SchemaChangeSink, SchemaContext, Slot } from './types.ts';

/** Keywords whose changes the comparison reads; any other is reported as a keyword it does not know. */
const KNOWN = new Set([
  'type', 'format', 'enum', 'const', 'default', 'pattern', 'x-extensible-enum', ...BOUND_KEYWORDS,
  'multipleOf', 'uniqueItems', 'contentMediaType', 'contentEncoding', 'contentSchema', 'deprecated',
  'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'dependentSchemas', 'dependencies',
  'items', 'prefixItems', 'contains', 'if', 'then', 'else', 'not', 'oneOf', 'anyOf', 'allOf',
  'discriminator', 'readOnly', 'writeOnly', 'x-rules', 'x-expect', 'x-sunset', 'x-stability-level',
]); // prettier-ignore

const propertyNames = (s: Schema) => Object.keys(s.properties ?? {});
const admits = (s: Schema, type: string) => typeList(s.type)?.includes(type) ?? true;

const ids = new WeakMap<object, number>();
let next = 0;
const idOf = (value: unknown) => {
  if (typeof value !== 'object' || value === null) return String(value);
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ++next));
  return String(id);
};

/**
 * Compares two schemas of one place in the contract: each keyword's change becomes a change of a
 * kind (`max-decreased`), which the rule table levels by the side of the wire. A pair of schemas
 * already on the way is not compared again, so recursive schemas end.
 */
export class SchemaComparer implements Comparison {
  private readonly quiet = new QuietPairs();
  constructor(
    readonly base: SchemaReader,
    readonly rev: SchemaReader,
    readonly revDoc: SpecDocument,
    private readonly sink: SchemaChangeSink,
  ) {}

  emit(kind: ReportedKind, context: SchemaContext, where: Location, text: string) {
    this.quiet.noteChange();
    this.sink(kind, context, where, text);
  }

  child(context: SchemaContext, field: string, where: Location): SchemaContext {
    return { ...context, field, nested: true, where };
  }

  at(where: Location, ...keys: (string | number)[]): Location {
    return { ...where, pointer: `${where.pointer}${keys.map((k) => `/${escapePointer(k)}`).join('')}` };
  }

  compare(baseNode: unknown, revNode: unknown, context: SchemaContext): void {
    const b = this.base.read(baseNode);
    const r = this.rev.read(revNode);
    const where = this.revDoc.locate(r.raw) ?? context.where;
    if (b.unresolved || r.unresolved) {
      if (b.unresolved !== r.unresolved)
        this.emit(
          'reference-unresolved',
          context,
          where,
          `$ref ${r.unresolved ?? b.unresolved} cannot be resolved`,
        );
      return;
    }
    const pair = `${idOf(b.raw)}:${idOf(r.raw)}:${context.side}`;
    const memo = this.quiet.key(pair, context, baseNode, revNode);
    if (context.seen.has(pair)) return this.quiet.revisit(memo, context);
    if (this.quiet.skip(memo, context)) return;
    this.quiet.run(memo, pair, context, () => this.compareNew(b, r, where, context, baseNode, revNode));
  }

  private compareNew(
    b: ReturnType<SchemaReader['read']>,
    r: ReturnType<SchemaReader['read']>,
    where: Location,
    context: SchemaContext,
    baseNode: unknown,
    revNode: unknown,
  ) {
    // The properties a required name may refer to: this schema's, and inside a condition or an
    // alternative, those of the schemas around it.
    const described = new Set([
      ...propertyNames(b.schema),
      ...propertyNames(r.schema),
      ...(context.inside ? (context.described ?? []) : []),
    ]);
    const here: SchemaContext = {
      ...context,
      where,
      described,
      inside: false,
      part: context.inside === true,
    };
    const inside: SchemaContext = { ...here, inside: true };
    if (this.compareNothing(b.schema, r.schema, here, where)) return;
    if (compareWrapped(this, b.schema, r.schema, inside, baseNode, revNode)) return;
    const report = this.report.bind(this, here, where);
    report(compareTypes(b.schema, r.schema, here.carrier));
    report(compareFormat(b.schema, r.schema));
    // A keyword of a type neither side admits constrains nothing: `minimum` on a string.
    report(inapplicable(b.schema, r.schema, compareValues(b.schema, r.schema)));
    report(inapplicable(b.schema, r.schema, compareBounds(b.schema, r.schema)));
    report(compareContent(b.schema, r.schema));
    report(compareDeprecated(b.schema, r.schema));
    report(compareContract(b.schema, r.schema));
    // Object and array keywords constrain only objects and arrays: when the type change took
    // them away on one side (an object became an array), the type change already says it all.
    for (const type of ['object', 'array'] as const) {
      if (admits(b.schema, type) !== admits(r.schema, type)) continue;
      if (!admits(b.schema, type)) report(inapplicableOfType(b.schema, r.schema, type));
      else if (type === 'object') compareObject(this, b.schema, r.schema, here);
      else this.compareArrays(b.schema, r.schema, here);
    }
    this.compareConditions(b.schema, r.schema, inside);
    for (const combiner of ['oneOf', 'anyOf', 'allOf'] as const)
      compareCombiner(this, combiner, b.schema[combiner], r.schema[combiner], inside);
    compareDiscriminator(this, b.schema, r.schema, here);
    this.compareRest(b.schema, r.schema, here);
  }

  /**
   * A side no value meets (`false`, `not: {}`, allOf parts that share no type): every value of the
   * other is gone, or new; whatever else changed beside it constrains nothing. True when one is.
   */
  private compareNothing(b: Schema, r: Schema, context: SchemaContext, where: Location): boolean {
    const none = (s: Schema, reader: SchemaReader) => s.not !== undefined && this.isOpen(s.not, reader);
    const [bNone, rNone] = [none(b, this.base), none(r, this.rev)];
    if (!bNone && !rNone) return false;
    if (bNone !== rNone)
      this.emit(
        rNone ? 'type-specialized' : 'type-generalized',
        context,
        this.at(where, 'type'),
        rNone ? 'no value is valid any more' : 'values are valid where none was',
      );
    const report = this.report.bind(this, context, where);
    report(compareDeprecated(b, r));
    report(compareContract(b, r));
    this.compareRest(b, r, context);
    return true;
  }

  private report(context: SchemaContext, where: Location, changes: KeywordChange[]) {
    for (const c of changes) this.emit(c.kind, context, this.at(where, c.keyword), c.text);
  }

  /** A subschema keyword: absent means anything, `false` nothing; both there, compared inside. */
  slot(
    slot: Slot,
    baseNode: unknown,
    revNode: unknown,
    context: SchemaContext,
    field = context.field,
    path: (string | number)[] = [slot.keyword],
  ) {
    const [baseOpen, revOpen] = [this.isOpen(baseNode, this.base), this.isOpen(revNode, this.rev)];
    if (baseOpen && revOpen) return;
    const where = this.at(context.where, ...path);
    const name = `\`${slot.keyword}\``;
    if (baseOpen) return this.emit(slot.added, context, where, `${name} added`);
    if (revOpen) return this.emit(slot.removed, context, where, `${name} removed`);
    if (baseNode === false && revNode === false) return;
    if (baseNode === false) return this.emit(slot.removed, context, where, `${name} no longer false`);
    if (revNode === false) return this.emit(slot.added, context, where, `${name} now false`);
    this.compare(baseNode, revNode, this.child(context, `${field}${slot.suffix ?? ''}`, where));
  }

  /** Absent, `true` or a schema of annotations only: anything is valid. */
  private isOpen(node: unknown, reader: SchemaReader): boolean {
    if (node === undefined || node === true) return true;
    if (typeof node !== 'object' || node === null) return false;
    const { schema } = reader.read(node);
    return Object.keys(schema).every((k) => ANNOTATIONS.has(k));
  }

  private compareArrays(b: Schema, r: Schema, context: SchemaContext) {
    const [bp, rp] = [b.prefixItems, r.prefixItems].map((p) => (Array.isArray(p) ? (p as unknown[]) : []));
    // A position is constrained by its prefixItems entry, else by items; past a closed tuple
    // (`items: false`), a new entry lets the array grow, and a removed one shortens it.
    for (let i = 0; i < Math.max(bp!.length, rp!.length); i++) {
      const where = this.at(context.where, 'prefixItems', i);
      if (i >= bp!.length && b.items === false) {
        this.emit('tuple-lengthened', context, where, `an item at position ${i} is now allowed`);
        continue;
      }
      if (i >= rp!.length && r.items === false) {
        this.emit('tuple-shortened', context, where, `no item is allowed at position ${i} any more`);
        continue;
      }
      this.slot(
        {
          keyword: 'prefixItems',
          added: 'prefix-items-added',
          removed: 'prefix-items-removed',
          suffix: `[${i}]`,
        },
        i < bp!.length ? bp![i] : b.items,
        i < rp!.length ? rp![i] : r.items,
        context,
        context.field,
        ['prefixItems', i],
      );
    }
    this.slot(
      { keyword: 'items', added: 'items-added', removed: 'items-removed', suffix: '[]' },
      b.items,
      r.items,
      context,
    );
    this.slot(
      { keyword: 'contains', added: 'contains-added', removed: 'contains-removed', suffix: '[?]' },
      b.contains,
      r.contains,
      context,
    );
    this.slot(
      {
        keyword: 'unevaluatedItems',
        added: 'unevaluated-items-added',
        removed: 'unevaluated-items-removed',
        suffix: '[]',
      },
      b.unevaluatedItems,
      r.unevaluatedItems,
      context,
    );
  }

  private compareConditions(b: Schema, r: Schema, context: SchemaContext) {
    if (
      b.if !== undefined &&
      r.if !== undefined &&
      !same(this.base.read(b.if).schema, this.rev.read(r.if).schema)
    )
      this.emit('if-changed', context, this.at(context.where, 'if'), '`if` changed');
    else this.slot({ keyword: 'if', added: 'if-added', removed: 'if-removed' }, b.if, r.if, context);
    this.slot({ keyword: 'then', added: 'then-added', removed: 'then-removed' }, b.then, r.then, context);
    this.slot({ keyword: 'else', added: 'else-added', removed: 'else-removed' }, b.else, r.else, context);
    this.slot(
      { keyword: 'contentSchema', added: 'content-schema-added', removed: 'content-schema-removed' },
      b.contentSchema,
      r.contentSchema,
      context,
    );
    if (b.not === undefined || r.not === undefined)
      return this.slot({ keyword: 'not', added: 'not-added', removed: 'not-removed' }, b.not, r.not, context);
    // What `not` refuses grows when its schema grows: the inner change counts the other way.
    this.compare(b.not, r.not, { ...context, negated: !context.negated, field: `${context.field}(not)` });
  }

  /** Annotations, extensions and keywords this comparison does not know: never silent. */
  private compareRest(b: Schema, r: Schema, context: SchemaContext) {
    const changed = [...new Set([...Object.keys(b), ...Object.keys(r)])].filter(
      (k) => !KNOWN.has(k) && !same(b[k], r[k]),
    );
    const annotations = changed.filter((k) => ANNOTATIONS.has(k));
    if (annotations.length)
      this.emit(
        'annotation-changed',
        context,
        this.at(context.where, annotations[0]!),
        `${annotations.join(', ')} changed`,
      );
    for (const k of changed.filter((k) => !ANNOTATIONS.has(k)))
      this.emit(
        k.startsWith('x-') ? 'extension-changed' : 'keyword-changed',
        context,
        this.at(context.where, k),
        `\`${k}\` changed`,
      );
  }
}
