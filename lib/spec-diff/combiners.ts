import { ANNOTATIONS, asText, canonical, same, typeList, type SchemaReader } from './normalize.ts';
import type { SchemaKind } from './schema-rules.ts';
import type { Comparison, Schema, SchemaContext } from './types.ts';

/**
 * A schema that became one branch of a `oneOf`/`anyOf` with nothing else beside it (or the
 * reverse) is compared branch by branch: wrapping a type in a `oneOf` with another widens it.
 */
export function compareWrapped(
  c: Comparison,
  b: Schema,
  r: Schema,
  context: SchemaContext,
  baseNode: unknown,
  revNode: unknown,
): boolean {
  const only = (s: Schema, k: string) =>
    Array.isArray(s[k]) &&
    Object.keys(s).every((key) => key === k || key === 'discriminator' || ANNOTATIONS.has(key));
  // A side that admits any value did not become a branch: the other's alternatives only narrow it.
  if ([b, r].some(open)) return false;
  for (const combiner of ['oneOf', 'anyOf'] as const) {
    if (only(r, combiner) && b[combiner] === undefined) {
      compareCombiner(c, combiner, [baseNode], r[combiner], context, {
        wrapped: r.discriminator === undefined,
      });
      return true;
    }
    if (only(b, combiner) && r[combiner] === undefined) {
      compareCombiner(c, combiner, b[combiner], [revNode], context);
      return true;
    }
  }
  return false;
}

/** Keywords that constrain no value: a schema of these alone admits every value. */
const FREE = new Set([...ANNOTATIONS, 'deprecated', 'readOnly', 'writeOnly', 'default']);
const open = (s: Schema) => Object.keys(s).every((k) => FREE.has(k) || k.startsWith('x-'));

/** The kinds of change of each combiner: the keyword and the alternatives in it. */
// prettier-ignore
const COMBINER_KINDS = {
  oneOf: { added: 'one-of-added', removed: 'one-of-removed', branchAdded: 'one-of-branch-added', overlapping: 'one-of-branch-added-overlapping', branchRemoved: 'one-of-branch-removed' },
  anyOf: { added: 'any-of-added', removed: 'any-of-removed', branchAdded: 'any-of-branch-added', overlapping: 'any-of-branch-added', branchRemoved: 'any-of-branch-removed' },
  allOf: { added: 'all-of-branch-added', removed: 'all-of-branch-removed', branchAdded: 'all-of-branch-added', overlapping: 'all-of-branch-added', branchRemoved: 'all-of-branch-removed' },
} as const satisfies Record<string, Record<string, SchemaKind>>;

export function compareCombiner(
  c: Comparison,
  combiner: 'oneOf' | 'anyOf' | 'allOf',
  bList: unknown,
  rList: unknown,
  context: SchemaContext,
  /** A schema just wrapped into the combiner with no discriminator: its branches may overlap. */
  { wrapped = false } = {},
) {
  const kinds = COMBINER_KINDS[combiner];
  const where = c.at(context.where, combiner);
  if (!Array.isArray(bList) && !Array.isArray(rList)) return;
  if (!Array.isArray(bList) && combiner !== 'allOf')
    return c.emit(kinds.added, context, where, `\`${combiner}\` added`);
  if (!Array.isArray(rList) && combiner !== 'allOf')
    return c.emit(kinds.removed, context, where, `\`${combiner}\` removed`);
  const [bs, rs] = [(bList as unknown[] | undefined) ?? [], (rList as unknown[] | undefined) ?? []];
  const { pairs, added, removed } = matchBranches(c, bs, rs);
  for (const [i, j] of pairs)
    c.compare(bs[i], rs[j], c.child(context, `${context.field}(${combiner}[${j}])`, c.at(where, j)));
  for (const j of added) {
    // A value must match exactly one branch of a oneOf: a new branch that shares values with
    // another refuses what matched the other alone, unless a discriminator tells them apart.
    const overlaps =
      combiner === 'oneOf' && wrapped && rs.some((other, k) => k !== j && overlap(c, rs[j], other));
    const kind = overlaps ? kinds.overlapping : kinds.branchAdded;
    c.emit(kind, context, c.at(where, j), `\`${combiner}\` alternative ${j} added`);
  }
  for (const i of removed)
    c.emit(kinds.branchRemoved, context, where, `\`${combiner}\` alternative ${i} removed`);
}

/**
 * Whether two branches may admit one value: their types meet, and no required property of both
 * holds values that differ (a `const` or an `enum` each).
 */
function overlap(c: Comparison, a: unknown, b: unknown): boolean {
  const [x, y] = [c.rev.read(a).schema, c.rev.read(b).schema];
  const [tx, ty] = [typeList(x.type), typeList(y.type)];
  const number = (t: string[]) => (t.includes('number') ? [...t, 'integer'] : t);
  if (tx && ty && !number(tx).some((t) => number(ty).includes(t))) return false;
  const values = (s: Schema, name: string) => {
    const p = c.rev.read((s.properties as Schema | undefined)?.[name]).schema;
    return p.const !== undefined ? [p.const] : Array.isArray(p.enum) ? (p.enum as unknown[]) : undefined;
  };
  const required = (s: Schema) => (Array.isArray(s.required) ? (s.required as string[]) : []);
  for (const name of required(x).filter((n) => required(y).includes(n))) {
    const [vx, vy] = [values(x, name), values(y, name)];
    if (vx && vy && !vx.some((v) => vy.some((w) => same(v, w)))) return false;
  }
  return true;
}

/** Branches paired by `$ref`, then by meaning, then by title, then by type. */
function matchBranches(c: Comparison, bs: unknown[], rs: unknown[]) {
  const pairs: [number, number][] = [];
  const freeB = new Set(bs.keys());
  const freeR = new Set(rs.keys());
  const ref = (n: unknown) => (typeof n === 'object' && n !== null ? (n as Schema).$ref : undefined);
  const keys: ((n: unknown, reader: SchemaReader) => unknown)[] = [
    (n) => ref(n),
    (n, reader) => canonical(reader.read(n).schema),
    (n, reader) => reader.read(n).schema.title,
    (n) => asText(ref(n)).split('/').pop() || undefined,
    (n, reader) => JSON.stringify(reader.read(n).schema.type ?? null),
  ];
  for (const key of keys)
    for (const i of [...freeB]) {
      const k = key(bs[i], c.base);
      if (k === undefined) continue;
      const j = [...freeR].find((j) => key(rs[j], c.rev) === k);
      if (j === undefined) continue;
      pairs.push([i, j]);
      freeB.delete(i);
      freeR.delete(j);
    }
  return { pairs, added: [...freeR], removed: [...freeB] };
}

export function compareDiscriminator(c: Comparison, b: Schema, r: Schema, context: SchemaContext) {
  const [bd, rd] = [b.discriminator as Schema | undefined, r.discriminator as Schema | undefined];
  if (same(bd, rd)) return;
  const where = c.at(context.where, 'discriminator');
  if (!bd || !rd)
    return c.emit(
      bd ? 'discriminator-removed' : 'discriminator-added',
      context,
      where,
      `discriminator ${bd ? 'removed' : 'added'}`,
    );
  if (bd.propertyName !== rd.propertyName)
    c.emit(
      'discriminator-property-name-changed',
      context,
      where,
      `discriminator property changed from \`${asText(bd.propertyName)}\` to \`${asText(rd.propertyName)}\``,
    );
  const [bm, rm] = [(bd.mapping ?? {}) as Schema, (rd.mapping ?? {}) as Schema];
  for (const value of new Set([...Object.keys(bm), ...Object.keys(rm)])) {
    if (bm[value] === rm[value]) continue;
    const [kind, what] =
      bm[value] === undefined
        ? (['discriminator-mapping-added', 'added'] as const)
        : rm[value] === undefined
          ? (['discriminator-mapping-removed', 'removed'] as const)
          : (['discriminator-mapping-changed', 'changed'] as const);
    c.emit(kind, context, c.at(where, 'mapping', value), `discriminator value \`${value}\` ${what}`);
  }
}
