import { compareLifecycle, type LifecycleChange } from './lifecycle.ts';
import type { WrittenId } from './other-rules.ts';
import type { SchemaKind } from './schema-rules.ts';
import type { KeywordChange, ReportedKind } from './types.ts';

export type { KeywordChange } from './types.ts';
import { asText, canonical, same, typeList, type Schema } from './normalize.ts';

/** A value in a change's text, in code marks, cut at 60 characters. */
export const show = (value: unknown) => {
  const text = typeof value === 'string' ? value : canonical(value);
  return `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
};
const showTypes = (types: string[] | undefined) => (types ? types.join(' or ') : 'any type');

/** `integer` is a `number`: a list that has `number` covers it. */
const covers = (list: string[], type: string) =>
  list.includes(type) || (type === 'integer' && list.includes('number'));

export function compareTypes(base: Schema, rev: Schema, carrier?: 'text' | 'xml'): KeywordChange[] {
  const [b, r] = [typeList(base.type), typeList(rev.type)];
  if (same(b, r)) return [];
  const out: KeywordChange[] = [];
  const change = (kind: SchemaKind, line: string) => out.push({ kind, keyword: 'type', text: line });
  if (!b || !r) {
    change(
      b ? 'type-generalized' : 'type-specialized',
      `type changed from ${showTypes(b)} to ${showTypes(r)}`,
    );
    return out;
  }
  const [bn, rn] = [b.includes('null'), r.includes('null')];
  if (bn !== rn)
    change(rn ? 'became-nullable' : 'became-not-nullable', rn ? 'became nullable' : 'no longer nullable');
  const [bt, rt] = [b.filter((t) => t !== 'null'), r.filter((t) => t !== 'null')];
  if (same(bt, rt)) return out;
  // As text, a string admits the spelling of any value: anything may become a string.
  const admits = (list: string[], t: string) =>
    covers(list, t) || (carrier !== undefined && list.includes('string'));
  const wider = bt.every((t) => admits(rt, t));
  const narrower = rt.every((t) => admits(bt, t));
  const description = `type changed from ${showTypes(bt)} to ${showTypes(rt)}`;
  const looselyTyped = same([...bt, ...rt].sort(), ['object', 'string']);
  // `[integer, number]` is `number`: both ways covered, nothing changed.
  if (wider && narrower) return out;
  if (carrier === 'xml' && looselyTyped) change('type-compatible', description);
  else if (bt.length === 0 || rt.length === 0) change('type-changed', description);
  else if (wider && !narrower) change('type-generalized', description);
  else if (narrower && !wider) change('type-specialized', description);
  else change('type-changed', description);
  return out;
}

/** Formats that admit all another does: every `int32` value is an `int64` value. */
const WIDER_FORMAT: Record<string, string[]> = {
  int32: ['int64', 'bigint'],
  int64: ['bigint'],
  float: ['double'],
};

export function compareFormat(base: Schema, rev: Schema): KeywordChange[] {
  const [b, r] = [base.format, rev.format];
  if (same(b, r)) return [];
  const shown = (f: unknown) => (f === undefined ? 'none' : show(f));
  const text = `format changed from ${shown(b)} to ${shown(r)}`;
  let kind: SchemaKind = 'format-changed';
  if (b === undefined) kind = 'format-added';
  else if (r === undefined) kind = 'format-removed';
  else if (WIDER_FORMAT[asText(b)]?.includes(asText(r))) kind = 'format-generalized';
  else if (WIDER_FORMAT[asText(r)]?.includes(asText(b))) kind = 'format-specialized';
  return [{ kind, keyword: 'format', text }];
}

/** A list of values: each value added or removed, or the list itself added or removed. */
function valueList<K extends ReportedKind>(
  keyword: string,
  base: unknown,
  rev: unknown,
  kinds: { became?: K; gone?: K; added: K; removed: K },
): (KeywordChange & { kind: K })[] {
  if (same(base, rev)) return [];
  const [b, r] = [base, rev].map((v) => (Array.isArray(v) ? v : undefined));
  if (!b && r)
    return kinds.became ? [{ kind: kinds.became, keyword, text: `${keyword} ${show(r)} added` }] : [];
  if (b && !r) return kinds.gone ? [{ kind: kinds.gone, keyword, text: `${keyword} removed` }] : [];
  if (!b || !r) return [];
  const [bs, rs] = [new Set(b.map(canonical)), new Set(r.map(canonical))];
  return [
    ...r
      .filter((v) => !bs.has(canonical(v)))
      .map((v) => ({ kind: kinds.added, keyword, text: `${keyword} value ${show(v)} added` })),
    ...b
      .filter((v) => !rs.has(canonical(v)))
      .map((v) => ({ kind: kinds.removed, keyword, text: `${keyword} value ${show(v)} removed` })),
  ];
}

/** The one value a schema allows, by `const` or by an enum of one; undefined when none is fixed. */
const fixed = (s: Schema) =>
  s.const !== undefined ? [s.const] : Array.isArray(s.enum) && s.enum.length === 1 ? s.enum : undefined;

export function compareValues(base: Schema, rev: Schema): KeywordChange[] {
  // `enum: [v]` and `const: v` allow the same one value; beside each other, both hold.
  const both = (s: Schema) => s.const !== undefined && s.enum !== undefined;
  const sameValue = !both(base) && !both(rev) && fixed(base) !== undefined && same(fixed(base), fixed(rev));
  const out: KeywordChange[] = [
    ...valueList('enum', sameValue ? undefined : base.enum, sameValue ? undefined : rev.enum, {
      became: 'became-enum',
      gone: 'enum-removed',
      added: 'enum-value-added',
      removed: 'enum-value-removed',
    }),
    ...valueList('x-extensible-enum', base['x-extensible-enum'], rev['x-extensible-enum'], {
      added: 'x-extensible-enum-value-added',
      removed: 'x-extensible-enum-value-removed',
    }),
  ];
  const one = (keyword: string, kinds: readonly [SchemaKind, SchemaKind, SchemaKind]) => {
    const [b, r] = [base[keyword], rev[keyword]];
    if (same(b, r)) return;
    if (b === undefined) out.push({ kind: kinds[0], keyword, text: `${keyword} ${show(r)} added` });
    else if (r === undefined) out.push({ kind: kinds[2], keyword, text: `${keyword} ${show(b)} removed` });
    else out.push({ kind: kinds[1], keyword, text: `${keyword} changed from ${show(b)} to ${show(r)}` });
  };
  if (!sameValue) one('const', ['const-added', 'const-changed', 'const-removed']);
  one('default', ['default-added', 'default-changed', 'default-removed']);
  const [bp, rp] = [base.pattern, rev.pattern];
  if (!same(bp, rp)) {
    let kind: SchemaKind = 'pattern-changed';
    if (bp === undefined) kind = 'pattern-added';
    else if (rp === undefined) kind = 'pattern-removed';
    else if (/^\^?(\.\*|\[\\s\\S\]\*)\$?$/.test(asText(rp))) kind = 'pattern-generalized';
    const text =
      bp === undefined
        ? `pattern ${show(rp)} added`
        : rp === undefined
          ? `pattern ${show(bp)} removed`
          : `pattern changed from ${show(bp)} to ${show(rp)}`;
    out.push({ kind, keyword: 'pattern', text });
  }
  return out;
}

export function compareContent(base: Schema, rev: Schema): KeywordChange[] {
  const out: KeywordChange[] = [];
  for (const [keyword, kind] of [
    ['contentMediaType', 'content-media-type-changed'],
    ['contentEncoding', 'content-encoding-changed'],
  ] as const)
    if (!same(base[keyword], rev[keyword]))
      out.push({
        kind,
        keyword,
        text: `${keyword} changed from ${show(base[keyword] ?? 'none')} to ${show(rev[keyword] ?? 'none')}`,
      });
  return out;
}

export function compareDeprecated(base: Schema, rev: Schema): KeywordChange[] {
  // A property's sunset moved earlier reads as no change of the values: only an operation's counts.
  const lifecycle = compareLifecycle(base, rev).filter(
    (c): c is LifecycleChange & { kind: SchemaKind } => c.kind !== 'sunset-brought-forward',
  );
  if (Boolean(base.deprecated) === Boolean(rev.deprecated)) return lifecycle;
  return [
    ...lifecycle,
    rev.deprecated
      ? { kind: 'property-deprecated', keyword: 'deprecated', text: 'marked deprecated' }
      : { kind: 'property-reactivated', keyword: 'deprecated', text: 'no longer deprecated' },
  ];
}

/** This contract's own keywords: the rules a schema or operation carries, and its expectations. */
export function compareContract(base: Schema, rev: Schema): (KeywordChange & { kind: WrittenId })[] {
  const out: (KeywordChange & { kind: WrittenId })[] = valueList('x-rules', base['x-rules'], rev['x-rules'], {
    became: 'contract-rule-added',
    gone: 'contract-rule-removed',
    added: 'contract-rule-added',
    removed: 'contract-rule-removed',
  });
  const [b, r] = [base['x-expect'], rev['x-expect']];
  if (!same(b, r)) {
    const kind =
      b === undefined
        ? 'contract-expectation-added'
        : r === undefined
          ? 'contract-expectation-removed'
          : 'contract-expectation-changed';
    out.push({ kind, keyword: 'x-expect', text: `x-expect ${kind.split('-').pop()}` });
  }
  return out;
}

/** The type of value each keyword constrains: on a schema of other types only, it constrains nothing. */
const BY_TYPE: [string, string[]][] = [
  ['number', ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf']],
  ['string', ['maxLength', 'minLength', 'pattern']],
  ['array', ['maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'items', 'prefixItems', 'contains', 'unevaluatedItems']],
  ['object', ['maxProperties', 'minProperties', 'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'dependentRequired', 'dependentSchemas', 'dependencies', 'unevaluatedProperties']],
]; // prettier-ignore
const KEYWORD_TYPES = new Map(BY_TYPE.flatMap(([type, keywords]) => keywords.map((k) => [k, type] as const)));

/** Whether a schema admits values of a type: untyped, it admits all; `integer` is a `number`. */
export const admitsType = (s: Schema, type: string) => {
  const list = typeList(s.type);
  return !list || list.includes(type) || (type === 'number' && list.includes('integer'));
};

/** Whether a keyword constrains some value either side admits (a type's keyword on other types does not). */
export const applies = (base: Schema, rev: Schema, keyword: string) => {
  const type = KEYWORD_TYPES.get(keyword);
  return type === undefined || admitsType(base, type) || admitsType(rev, type);
};

/**
 * The changes of keywords that constrain no value either side admits (`minItems` on a string),
 * each as such: what they say changes no valid value.
 */
export function inapplicable(base: Schema, rev: Schema, changes: KeywordChange[]): KeywordChange[] {
  return changes.map((c) =>
    applies(base, rev, c.keyword)
      ? c
      : {
          kind: 'inapplicable-keyword-changed',
          keyword: c.keyword,
          text: `${c.text}, on no type it constrains`,
        },
  );
}

/** The counts of items and properties, which `compareBounds` reads and `inapplicable` then marks. */
const COUNTS = [
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
];

/** The keywords of one type that changed, where neither side admits the type: each as inapplicable. */
export function inapplicableOfType(base: Schema, rev: Schema, type: string): KeywordChange[] {
  return [...KEYWORD_TYPES]
    .filter(([k, t]) => t === type && !COUNTS.includes(k) && !applies(base, rev, k) && !same(base[k], rev[k]))
    .map(([keyword]) => ({
      kind: 'inapplicable-keyword-changed',
      keyword,
      text: `\`${keyword}\` changed, on no type it constrains`,
    }));
}
