import type { Location, SpecDocument } from './document.ts';
import { escapePointer } from './document.ts';
import {
  BOUND_KEYWORDS,
  compareBounds,
  compareContent,
  compareContract,
  compareDeprecated,
  compareFormat,
  compareTypes,
  compareValues,
  type KeywordChange,
} from './keywords.ts';
import { ANNOTATIONS, canonical, same, type Schema, type SchemaReader } from './normalize.ts';
import { compareObject } from './objects.ts';

/** Where in the contract a comparison is, and on which side of the wire. */
export interface SchemaContext {
  side: 'request' | 'response';
  /** The rule places for the schema at the top and for one nested in it. */
  places: readonly [string, string];
  /** The operation and what in it: "response 200 (application/json)". */
  label: string;
  /** The property path inside the schema: `items[].name`. */
  field: string;
  nested: boolean;
  where: Location;
  seen: Set<string>;
}

export interface SchemaChangeSink {
  (kind: string, context: SchemaContext, where: Location, text: string): void;
}

/** Keywords whose changes the comparison reads; any other is reported as a keyword it does not know. */
const KNOWN = new Set([
  'type', 'format', 'enum', 'const', 'default', 'pattern', 'x-extensible-enum', ...BOUND_KEYWORDS,
  'multipleOf', 'uniqueItems', 'contentMediaType', 'contentEncoding', 'contentSchema', 'deprecated',
  'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'dependentSchemas', 'dependencies',
  'items', 'prefixItems', 'contains', 'if', 'then', 'else', 'not', 'oneOf', 'anyOf', 'allOf',
  'discriminator', 'readOnly', 'writeOnly', 'x-rules', 'x-expect',
]); // prettier-ignore

/** A subschema keyword: its kinds when it appears and when it goes. */
export interface Slot {
  keyword: string;
  added: string;
  removed: string;
  /** How its path reads inside the field: `[]` for items. */
  suffix?: string;
}

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
export class SchemaComparer {
  constructor(
    readonly base: SchemaReader,
    readonly rev: SchemaReader,
    readonly revDoc: SpecDocument,
    private readonly sink: SchemaChangeSink,
  ) {}

  emit(kind: string, context: SchemaContext, where: Location, text: string) {
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
    const key = `${idOf(b.raw)}:${idOf(r.raw)}:${context.side}`;
    if (context.seen.has(key)) return;
    context.seen.add(key);
    const here = { ...context, where };
    if (this.compareWrapped(b.schema, r.schema, here, baseNode, revNode)) return;
    const report = (changes: KeywordChange[]) => {
      for (const c of changes) this.emit(c.kind, here, this.at(where, c.keyword), c.text);
    };
    report(compareTypes(b.schema, r.schema));
    report(compareFormat(b.schema, r.schema));
    report(compareValues(b.schema, r.schema));
    report(compareBounds(b.schema, r.schema));
    report(compareContent(b.schema, r.schema));
    report(compareDeprecated(b.schema, r.schema));
    report(compareContract(b.schema, r.schema));
    compareObject(this, b.schema, r.schema, here);
    this.compareArrays(b.schema, r.schema, here);
    this.compareConditions(b.schema, r.schema, here);
    for (const combiner of ['oneOf', 'anyOf', 'allOf'] as const)
      this.compareCombiner(combiner, b.schema[combiner], r.schema[combiner], here);
    this.compareDiscriminator(b.schema, r.schema, here);
    this.compareRest(b.schema, r.schema, here);
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
    const open = (n: unknown, reader: SchemaReader) =>
      n === undefined || n === true || this.isEmpty(n, reader);
    const closed = (n: unknown) => n === false;
    const where = this.at(context.where, ...path);
    if (open(baseNode, this.base) && open(revNode, this.rev)) return;
    const name = `\`${slot.keyword}\``;
    if (open(baseNode, this.base)) return this.emit(slot.added, context, where, `${name} added`);
    if (open(revNode, this.rev)) return this.emit(slot.removed, context, where, `${name} removed`);
    if (closed(baseNode) && closed(revNode)) return;
    if (closed(baseNode)) return this.emit(slot.removed, context, where, `${name} no longer false`);
    if (closed(revNode)) return this.emit(slot.added, context, where, `${name} now false`);
    this.compare(baseNode, revNode, this.child(context, `${field}${slot.suffix ?? ''}`, where));
  }

  private isEmpty(node: unknown, reader: SchemaReader): boolean {
    if (typeof node !== 'object' || node === null) return false;
    const { schema } = reader.read(node);
    return Object.keys(schema).every((k) => ANNOTATIONS.has(k));
  }

  private compareArrays(b: Schema, r: Schema, context: SchemaContext) {
    const [bp, rp] = [b.prefixItems, r.prefixItems].map((p) => (Array.isArray(p) ? p : []));
    // A position is constrained by its prefixItems entry, else by items.
    for (let i = 0; i < Math.max(bp!.length, rp!.length); i++)
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
    this.compare(b.not, r.not, {
      ...context,
      side: context.side === 'request' ? 'response' : 'request',
      field: `${context.field}(not)`,
    });
  }

  /**
   * A schema that became one branch of a `oneOf`/`anyOf` with nothing else beside it (or the
   * reverse) is compared branch by branch: wrapping a type in a `oneOf` with another widens it.
   */
  private compareWrapped(
    b: Schema,
    r: Schema,
    context: SchemaContext,
    baseNode: unknown,
    revNode: unknown,
  ): boolean {
    const only = (s: Schema, k: string) =>
      Array.isArray(s[k]) &&
      Object.keys(s).every((key) => key === k || key === 'discriminator' || ANNOTATIONS.has(key));
    for (const combiner of ['oneOf', 'anyOf'] as const) {
      if (only(r, combiner) && b[combiner] === undefined) {
        this.compareCombiner(combiner, [baseNode], r[combiner], context);
        return true;
      }
      if (only(b, combiner) && r[combiner] === undefined) {
        this.compareCombiner(combiner, b[combiner], [revNode], context);
        return true;
      }
    }
    return false;
  }

  private compareCombiner(
    combiner: 'oneOf' | 'anyOf' | 'allOf',
    bList: unknown,
    rList: unknown,
    context: SchemaContext,
  ) {
    const kebab = { oneOf: 'one-of', anyOf: 'any-of', allOf: 'all-of' }[combiner];
    const where = this.at(context.where, combiner);
    if (!Array.isArray(bList) && !Array.isArray(rList)) return;
    if (!Array.isArray(bList) && combiner !== 'allOf')
      return this.emit(`${kebab}-added`, context, where, `\`${combiner}\` added`);
    if (!Array.isArray(rList) && combiner !== 'allOf')
      return this.emit(`${kebab}-removed`, context, where, `\`${combiner}\` removed`);
    const [bs, rs] = [(bList as unknown[] | undefined) ?? [], (rList as unknown[] | undefined) ?? []];
    const { pairs, added, removed } = this.matchBranches(bs, rs);
    for (const [i, j] of pairs)
      this.compare(
        bs[i],
        rs[j],
        this.child(context, `${context.field}(${combiner}[${j}])`, this.at(where, j)),
      );
    for (const j of added)
      this.emit(
        `${kebab}-branch-added`,
        context,
        this.at(where, j),
        `\`${combiner}\` alternative ${j} added`,
      );
    for (const i of removed)
      this.emit(`${kebab}-branch-removed`, context, where, `\`${combiner}\` alternative ${i} removed`);
  }

  /** Branches paired by `$ref`, then by meaning, then by title, then by type. */
  private matchBranches(bs: unknown[], rs: unknown[]) {
    const pairs: [number, number][] = [];
    const freeB = new Set(bs.keys());
    const freeR = new Set(rs.keys());
    const ref = (n: unknown) => (typeof n === 'object' && n !== null ? (n as Schema).$ref : undefined);
    const keys: ((n: unknown, reader: SchemaReader) => unknown)[] = [
      (n) => ref(n),
      (n, reader) => canonical(reader.read(n).schema),
      (n, reader) => reader.read(n).schema.title,
      (n, reader) =>
        String(ref(n) ?? '')
          .split('/')
          .pop() || undefined,
      (n, reader) => JSON.stringify(reader.read(n).schema.type ?? null),
    ];
    for (const key of keys)
      for (const i of [...freeB]) {
        const k = key(bs[i], this.base);
        if (k === undefined) continue;
        const j = [...freeR].find((j) => key(rs[j], this.rev) === k);
        if (j === undefined) continue;
        pairs.push([i, j]);
        freeB.delete(i);
        freeR.delete(j);
      }
    return { pairs, added: [...freeR], removed: [...freeB] };
  }

  private compareDiscriminator(b: Schema, r: Schema, context: SchemaContext) {
    const [bd, rd] = [b.discriminator as Schema | undefined, r.discriminator as Schema | undefined];
    if (same(bd, rd)) return;
    const where = this.at(context.where, 'discriminator');
    if (!bd || !rd)
      return this.emit(
        bd ? 'discriminator-removed' : 'discriminator-added',
        context,
        where,
        `discriminator ${bd ? 'removed' : 'added'}`,
      );
    if (bd.propertyName !== rd.propertyName)
      this.emit(
        'discriminator-property-name-changed',
        context,
        where,
        `discriminator property changed from \`${String(bd.propertyName)}\` to \`${String(rd.propertyName)}\``,
      );
    const [bm, rm] = [(bd.mapping ?? {}) as Schema, (rd.mapping ?? {}) as Schema];
    for (const value of new Set([...Object.keys(bm), ...Object.keys(rm)])) {
      if (bm[value] === rm[value]) continue;
      const kind = bm[value] === undefined ? 'added' : rm[value] === undefined ? 'removed' : 'changed';
      this.emit(
        `discriminator-mapping-${kind}`,
        context,
        this.at(where, 'mapping', value),
        `discriminator value \`${value}\` ${kind}`,
      );
    }
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
