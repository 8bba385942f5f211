import type { ValidateFunction } from 'ajv';
import { ajv } from '../../contract/ajv.ts';
import { isObject } from '../../contract/properties.ts';
import { rule, type Change, type Level } from '../index.ts';
import { pick, type Edit, type Json } from './contract.ts';
import { candidates } from './values.ts';

/**
 * The gate's levels proven by values. For a schema edit, values are drawn from the base's and the
 * revision's schema at the edited place and judged by both through the project's one Ajv: a value
 * the revision admits and the base refused is new to a response's readers; a value the base
 * admits and the revision refuses is a request that may now fail. A change at `error` needs such
 * a witness on its side; a change at `info` must not be all the gate says where one exists.
 */

/** What the values showed of two schemas: a value each way, or why they could not be judged. */
export interface Witnesses {
  /** A value the revision admits and the base refuses. */
  gained?: unknown;
  /** A value the base admits and the revision refuses. */
  lost?: unknown;
  undecided?: string;
}

export type Verdict = 'agree' | 'overstated' | 'missed' | 'undecided';

export interface Judged {
  /** The rule judged; `(none)` where the gate said nothing of a schema edit. */
  id: string;
  level?: Level;
  verdict: Verdict;
  /** `overstated:max-length-set@text`: the verdict, the kind of change, and how the place travels. */
  klass: string;
  witness?: unknown;
}

/**
 * The disagreements the oracle finds and the gate keeps, each with why: what the values of a JSON
 * validator cannot show, or a level the gate holds on purpose. A class not listed is a finding.
 */
// prettier-ignore
export const KNOWN_DISAGREEMENTS: Record<string, string> = {
  'overstated:content-encoding-changed': 'contentEncoding is an annotation to a 2020-12 validator: the same strings pass, yet a reader decodes them another way',
  'overstated:content-media-type-changed': 'contentMediaType is an annotation to a 2020-12 validator: the same strings pass, yet a reader parses them another way',
  'overstated:default-added': "a parameter's default is part of the call: a client that leaves it out gets another behaviour, whatever values pass",
  'overstated:default-changed': "as default-added: the server assumes another value, whatever values pass",
  'overstated:default-removed': "as default-added: the server no longer assumes a value, whatever values pass",
  'overstated:if-added': 'a condition added is read by the keyword, not by the values it meets: one that refuses no value of the type is still told',
  'overstated:then-added': 'as if-added', 'overstated:else-added': 'as if-added', 'overstated:not-added': 'as if-added',
  'overstated:if-changed': 'as if-added: the values that take then or else may be the same',
  'overstated:all-of-branch-removed': 'an allOf part removed may have asked nothing the other parts did not: the gate reads the part, not its overlap',
  'overstated:all-of-branch-added': 'as all-of-branch-removed: a part added may ask nothing new',
  'overstated:one-of-branch-added-overlapping': "the overlap of two branches is read from their types and required constants: the values drawn may miss it",
  'overstated:any-of-added': 'an anyOf added whose branches cover the schema refuses nothing: the gate reads the keyword',
  'overstated:one-of-added': 'as any-of-added',
  'overstated:format-added': 'a format on values of a type it does not constrain (a string format on a number) refuses nothing',
  'overstated:format-changed': 'as format-added: formats neither side\'s values meet the same way',
  'overstated:pattern-added': "a pattern that matches what the schema already admits (an enum's members) refuses nothing",
  'overstated:type-changed': "as text (a parameter, a header), a value is a string first: types that share no JSON value may share a spelling",
  'overstated:dependent-schema-added': 'a dependent schema that the object already meets refuses nothing: the gate reads the keyword',
  'overstated:dependent-required-added': 'a dependency on names the object already requires refuses nothing',
  'overstated:property-names-added': 'names already limited by additionalProperties: false and the properties refuse nothing more',
  'overstated:unevaluated-properties-added': 'as property-names-added: unevaluatedProperties beside a closed object refuses nothing more',
  'overstated:unevaluated-items-added': 'unevaluatedItems beside items refuses nothing more',
  'overstated:max-length-set': "a bound every value already meets (an enum's members all shorter) refuses nothing: the gate reads the keyword",
  'overstated:min-length-set': 'as max-length-set: a least length every value already meets (enum members all longer)',
  'overstated:max-contains-set': 'maxContains without contains constrains nothing: the gate reads the keyword',
  'overstated:min-contains-set': 'as max-contains-set',
  'overstated:else-removed': 'as if-added: an else removed may have refused nothing the rest did not',
  'overstated:then-removed': 'as else-removed', 'overstated:if-removed': 'as else-removed',
  'missed:property-added': "a property described on an open object limits a name clients were free to send: the gate holds that no client sends names the contract does not list",
  'overstated:became-nullable@text': 'as text, null is spelled `null`, which a string already admits: the gate holds null apart from its spelling on purpose (a query parameter that stops admitting null is breaking, as its corpus pins)',
  'overstated:one-of-branch-added@text': 'as text, a branch of another type adds only spellings a string branch beside it already admits: the gate reads the branch, as it holds null apart from its spelling',
  'overstated:type-generalized@text': 'as text, every value is spelled as a string: a type removed beside `string` admits no new text, yet the gate reads the type, as it holds null apart from its spelling',
  'overstated:type-specialized@text': 'as text, an array of one item is spelled as the item: a type list that gains array still reads a string as an array of one, which the gate, reading types, does not see',
  'overstated:multiple-of-set': 'a divisor every value of the type meets (0.5 on integers) refuses nothing: the gate reads the keyword',
};

/** Why a disagreement is kept, when it is one of the known ones; a parameter's or header's class reads as its kind's. */
export const reasonOf = (klass: string) =>
  KNOWN_DISAGREEMENTS[klass] ?? KNOWN_DISAGREEMENTS[klass.replace(/@text$/, '')];

/** A schema with every internal `$ref` replaced by what it names (siblings kept beside it, as 2020-12 reads them). */
export function inline(node: unknown, root: Json, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, root, depth));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/') && depth < 20) {
    const { $ref, ...siblings } = node;
    const keys = $ref
      .slice(2)
      .split('/')
      .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
    const target = inline(pick(root, keys), root, depth + 1);
    return Object.keys(siblings).length ? { allOf: [target, inline(siblings, root, depth)] } : target;
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, root, depth)]));
}

function compile(schema: unknown): ValidateFunction | string {
  try {
    return ajv.compile(schema as object);
  } catch (error) {
    return (error as Error).message.split('\n')[0]!;
  }
}

/** Drops a schema from the one Ajv's cache: each edit's schemas are new objects, compiled once. */
function forget(schema: unknown) {
  if (typeof schema === 'object' && schema !== null) ajv.removeSchema(schema);
}

/**
 * A validator's verdict on a value; undefined where the validator itself throws, as Ajv's code for
 * `unevaluatedProperties` beside a `oneOf` may (a value the schema's author never meant).
 */
function judge(validate: ValidateFunction, value: unknown, text: boolean): boolean | undefined {
  try {
    return text ? readings(value).some((v) => validate(v)) : validate(value);
  } catch {
    return undefined;
  }
}

/**
 * How a value travels as text (a parameter, a header, a text body): an array's items joined by
 * commas, an object's names and values in turn (the `simple` and `form` styles), the rest as written.
 */
function spelling(value: unknown): string {
  if (Array.isArray(value)) return value.map(spelling).join(',');
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flat().map(spelling).join(',');
  return String(value);
}

/** The scalar a piece of text may stand for: itself, a number, a boolean, null. */
function scalars(text: string): unknown[] {
  const out: unknown[] = [text];
  if (text.trim() !== '' && Number.isFinite(Number(text))) out.push(Number(text));
  if (text === 'true' || text === 'false') out.push(text === 'true');
  if (text === 'null') out.push(null);
  return out;
}

/**
 * The JSON values one value may be read as where every value is text: the value, and each reading
 * of its spelling (a scalar, an array of its comma-separated parts, an object of their pairs), so
 * `"true"` is the spelling of `true`, `"a"` of `["a"]` and `{}` of `""`; a schema admits the text
 * when it admits any of them.
 */
function readings(value: unknown): unknown[] {
  const text = spelling(value);
  const parts = text === '' ? [] : text.split(',');
  const read = parts.map((p) => scalars(p).at(-1));
  const out: unknown[] = [value, ...scalars(text), parts, read];
  if (parts.length % 2 === 0) {
    const pairs = (values: unknown[]): Record<string, unknown> =>
      Object.fromEntries(
        values.flatMap((_, i): [string, unknown][] => (i % 2 ? [] : [[parts[i]!, values[i + 1]]])),
      );
    out.push(pairs(parts), pairs(read));
  }
  return out;
}

/** The witnesses between two schemas, from the candidates of both; `text` reads each value as its spelling. */
export function witnesses(base: unknown, rev: unknown, seed: number, text = false): Witnesses {
  if (base === undefined || rev === undefined) return { undecided: 'the place is gone on one side' };
  const [vb, vr] = [compile(base), compile(rev)];
  try {
    if (typeof vb === 'string' || typeof vr === 'string')
      return { undecided: `does not compile: ${typeof vb === 'string' ? vb : String(vr)}` };
    const found: Witnesses = {};
    for (const value of [...candidates(base, seed), ...candidates(rev, seed)]) {
      const [b, r] = [judge(vb, value, text), judge(vr, value, text)];
      if (b === undefined || r === undefined) return { undecided: 'the validator failed on a value' };
      if (r && !b) found.gained ??= value;
      if (b && !r) found.lost ??= value;
      if (found.gained !== undefined && found.lost !== undefined) break;
    }
    return found;
  } finally {
    forget(base);
    forget(rev);
  }
}

/** The rule the table gives a change, before any evidence settled it. */
const tableRule = (c: Change) => rule(c.instead ?? c.id);

/**
 * Each schema change of a one-step edit judged by the witnesses at its place. Edits of no schema
 * place, and changes not of a schema's values (evidence, components), are not judged. An edit of
 * several steps is judged step by step (see `fuzz`): here only whether the gate said nothing of it.
 */
export function judgeEdit(edit: Edit, base: Json, revision: Json, changes: Change[], seed: number): Judged[] {
  const place = edit.place;
  if (!place) return [];
  const schemaChanges = changes.filter((c) => tableRule(c).kind !== undefined);
  const several = edit.ops.length > 1;
  if (several && schemaChanges.length > 0) return [];
  // An allOf part's values are the whole's only where the other parts admit them too: judged
  // where the outermost allOf stands.
  const outer = place.keys.indexOf('allOf');
  const keys = outer < 0 ? place.keys : place.keys.slice(0, outer);
  const [b, r] = [inline(pick(base, keys), base), inline(pick(revision, keys), revision)];
  // A body of a media type not JSON's (text/html, text/plain) is text too, as the gate reads it.
  const media = String(place.keys[place.keys.indexOf('content') + 1] ?? '');
  const asText =
    place.holder === 'parameter' || place.holder === 'header' || (media !== '' && !media.includes('json'));
  const w = witnesses(b, r, seed, asText);
  const text = asText ? '@text' : '';
  const breaking = place.side === 'request' ? w.lost : w.gained;
  const broken = breaking !== undefined;
  const heard = schemaChanges.some(
    (c) => tableRule(c).level !== 'info' && tableRule(c).direction === place.side,
  );
  const judged: Judged[] = schemaChanges.map((c) => {
    const { id, level, kind } = tableRule(c);
    const of = (verdict: Verdict): Judged => ({
      id,
      level,
      verdict,
      klass: `${verdict}:${kind}${text}`,
      ...(verdict !== 'agree' && verdict !== 'undecided' ? { witness: breaking } : {}),
    });
    if (w.undecided) return of('undecided');
    if (level === 'error') return of(broken ? 'agree' : 'overstated');
    if (level === 'info' && broken && !heard) return of('missed');
    return of('agree');
  });
  if (!w.undecided && broken && schemaChanges.length === 0)
    judged.push({ id: '(none)', verdict: 'missed', klass: `missed:silent${text}`, witness: breaking });
  return judged;
}

/** The agreement of many judgements: agreed over decided, and the disagreements by class. */
export function tally(judged: Judged[]) {
  const by = (v: Verdict) => judged.filter((j) => j.verdict === v).length;
  const [agree, overstated, missed, undecided] = [
    by('agree'),
    by('overstated'),
    by('missed'),
    by('undecided'),
  ];
  const classes = new Map<string, number>();
  for (const j of judged)
    if (j.verdict === 'overstated' || j.verdict === 'missed')
      classes.set(j.klass, (classes.get(j.klass) ?? 0) + 1);
  const decided = agree + overstated + missed;
  return { agree, overstated, missed, undecided, agreement: decided ? agree / decided : 1, classes };
}
