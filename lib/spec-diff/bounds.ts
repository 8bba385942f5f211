import { same, type Schema } from './normalize.ts';
import { show } from './keywords.ts';
import type { SchemaKind } from './schema-rules.ts';
import type { KeywordChange } from './types.ts';

/**
 * The bounds of a schema: numbers (inclusive or exclusive, and their multiple), lengths, counts of
 * items, properties and matches, and whether items are unique. Raising a maximum or lowering a
 * minimum widens what the schema allows.
 */

type Bound = { value: number; exclusive: boolean; keyword: BoundKeyword } | undefined;

/** The tighter of a bound and its exclusive form: 3.1 may give both. */
function bound(s: Schema, inclusive: BoundKeyword, exclusive: BoundKeyword, upper: boolean): Bound {
  const found: Bound[] = [];
  if (typeof s[inclusive] === 'number')
    found.push({ value: s[inclusive], exclusive: false, keyword: inclusive });
  if (typeof s[exclusive] === 'number')
    found.push({ value: s[exclusive], exclusive: true, keyword: exclusive });
  return found.reduce<Bound>((best, next) => {
    if (!best) return next;
    const tighter = upper ? next!.value < best.value : next!.value > best.value;
    return tighter || (next!.value === best.value && next!.exclusive) ? next : best;
  }, undefined);
}

/** Each bound's kinds of change: raised, lowered, set, unset. */
// prettier-ignore
const KINDS = {
  maximum: ['max-increased', 'max-decreased', 'max-set', 'max-unset'],
  minimum: ['min-increased', 'min-decreased', 'min-set', 'min-unset'],
  exclusiveMaximum: ['exclusive-max-increased', 'exclusive-max-decreased', 'exclusive-max-set', 'exclusive-max-unset'],
  exclusiveMinimum: ['exclusive-min-increased', 'exclusive-min-decreased', 'exclusive-min-set', 'exclusive-min-unset'],
  maxLength: ['max-length-increased', 'max-length-decreased', 'max-length-set', 'max-length-unset'],
  minLength: ['min-length-increased', 'min-length-decreased', 'min-length-set', 'min-length-unset'],
  maxItems: ['max-items-increased', 'max-items-decreased', 'max-items-set', 'max-items-unset'],
  minItems: ['min-items-increased', 'min-items-decreased', 'min-items-set', 'min-items-unset'],
  maxProperties: ['max-properties-increased', 'max-properties-decreased', 'max-properties-set', 'max-properties-unset'],
  minProperties: ['min-properties-increased', 'min-properties-decreased', 'min-properties-set', 'min-properties-unset'],
  maxContains: ['max-contains-increased', 'max-contains-decreased', 'max-contains-set', 'max-contains-unset'],
  minContains: ['min-contains-increased', 'min-contains-decreased', 'min-contains-set', 'min-contains-unset'],
} as const satisfies Record<string, readonly [SchemaKind, SchemaKind, SchemaKind, SchemaKind]>;
type BoundKeyword = keyof typeof KINDS;

function compareBound(b: Bound, r: Bound, upper: boolean): KeywordChange[] {
  if (!b && !r) return [];
  if (b && r && b.value === r.value && b.exclusive === r.exclusive) return [];
  const name = (x: NonNullable<Bound>) => `${x.keyword} ${x.value}`;
  if (!b) return [{ kind: KINDS[r!.keyword][2], keyword: r!.keyword, text: `${name(r!)} set` }];
  if (!r) return [{ kind: KINDS[b.keyword][3], keyword: b.keyword, text: `${name(b)} removed` }];
  const stricter = upper
    ? r.value < b.value || (r.value === b.value && r.exclusive)
    : r.value > b.value || (r.value === b.value && r.exclusive);
  const raised = upper ? !stricter : stricter;
  const keywords = b.keyword === r.keyword ? r.keyword : `${b.keyword} to ${r.keyword}`;
  return [
    {
      kind: KINDS[r.keyword][raised ? 0 : 1],
      keyword: r.keyword,
      text: `${keywords} changed from ${b.value} to ${r.value}`,
    },
  ];
}

/** Whether `a` is a whole multiple of `b`, decimals such as 0.3 and 0.1 included. */
const wholeRatio = (a: number, b: number) => {
  const ratio = a / b;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
};

export const BOUND_KEYWORDS = Object.keys(KINDS) as BoundKeyword[];

const BOUNDED = [...BOUND_KEYWORDS, 'multipleOf', 'uniqueItems'];
const bounded = (s: Schema) => BOUNDED.some((k) => s[k] !== undefined);

export function compareBounds(base: Schema, rev: Schema): KeywordChange[] {
  if (!bounded(base) && !bounded(rev)) return [];
  const out = [
    ...compareBound(
      bound(base, 'maximum', 'exclusiveMaximum', true),
      bound(rev, 'maximum', 'exclusiveMaximum', true),
      true,
    ),
    ...compareBound(
      bound(base, 'minimum', 'exclusiveMinimum', false),
      bound(rev, 'minimum', 'exclusiveMinimum', false),
      false,
    ),
  ];
  for (const keyword of BOUND_KEYWORDS.slice(4)) {
    const upper = keyword.startsWith('max');
    const [b, r] = [base[keyword], rev[keyword]].map((v) =>
      typeof v === 'number' ? { value: v, exclusive: false, keyword } : undefined,
    );
    out.push(...compareBound(b, r, upper));
  }
  const [bm, rm] = [base.multipleOf, rev.multipleOf];
  if (!same(bm, rm)) {
    let kind: SchemaKind = 'multiple-of-changed';
    if (typeof bm !== 'number') kind = 'multiple-of-set';
    else if (typeof rm !== 'number') kind = 'multiple-of-unset';
    else if (wholeRatio(rm, bm)) kind = 'multiple-of-increased';
    else if (wholeRatio(bm, rm)) kind = 'multiple-of-decreased';
    out.push({ kind, keyword: 'multipleOf', text: `multipleOf changed from ${show(bm)} to ${show(rm)}` });
  }
  if (base.uniqueItems !== rev.uniqueItems)
    out.push({
      kind: rev.uniqueItems ? 'unique-items-set' : 'unique-items-unset',
      keyword: 'uniqueItems',
      text: rev.uniqueItems ? 'items must be unique' : 'items need not be unique',
    });
  return out;
}
