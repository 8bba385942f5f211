import { asObject, type Differ, type Node } from './differ.ts';
import type { Location } from './document.ts';
import { compareContract } from './keywords.ts';
import { compareLifecycle, PARAMETER_LIFECYCLE, sunsetPending } from './lifecycle.ts';
import { asText, typeList, type SchemaReader } from './normalize.ts';
import type { RuleId } from './rules.ts';

/** An operation and the path item it is in: parameters come from both. */
export interface OperationSide {
  item: Node;
  op: Node;
  /** The path as this side spells it. */
  path: string;
}

/** Query and cookie parameters default to `form`, path and header ones to `simple`; `form` explodes. */
const style = (p: Node) => asText(p.style ?? (p.in === 'query' || p.in === 'cookie' ? 'form' : 'simple'));
const explode = (p: Node) => (typeof p.explode === 'boolean' ? p.explode : style(p) === 'form');
/** Header names are case-insensitive (RFC 9110); query, path and cookie names are not. */
const sameName = (a: Node, b: Node) =>
  a.in === 'header' || b.in === 'header'
    ? asText(a.name).toLowerCase() === asText(b.name).toLowerCase()
    : a.name === b.name;
const paramKey = (p: Node) =>
  `${String(p.in)}:${p.in === 'header' ? String(p.name).toLowerCase() : String(p.name)}`;

function parameters(d: Differ, doc: 'base' | 'rev', side: OperationSide) {
  const spec = doc === 'base' ? d.base : d.rev;
  const map = new Map<string, { p: Node; raw: unknown }>();
  const pathNames = [...side.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const list of [side.item.parameters, side.op.parameters])
    for (const raw of Array.isArray(list) ? list : []) {
      const p = asObject(spec.deref(raw).node);
      // A path parameter is known by its place in the template: renaming it changes nothing.
      const key =
        p.in === 'path' && pathNames.includes(String(p.name))
          ? `path:#${pathNames.indexOf(String(p.name))}`
          : paramKey(p);
      map.set(key, { p, raw });
    }
  return map;
}

const PARAMETER_KEYS = new Set([
  'name', 'in', 'required', 'deprecated', 'style', 'explode', 'allowReserved', 'allowEmptyValue',
  'schema', 'content',
  'description', 'example', 'examples', 'x-rules', 'x-expect', 'x-sunset', 'x-stability-level',
]); // prettier-ignore

type Parameters = Map<string, { p: Node; raw: unknown }>;

const named = (p: Node) => `${String(p.in)} parameter \`${String(p.name)}\``;

export function compareParameters(d: Differ, b: OperationSide, r: OperationSide, where: Location) {
  const [bs, rs] = [parameters(d, 'base', b), parameters(d, 'rev', r)];
  const list = d.locate(r.op.parameters, d.at(where, 'parameters'));
  const { partner, moved } = pairParameters(d, bs, rs, list);
  for (const [key, { p: rp, raw }] of rs) {
    const at = d.locate(raw, list);
    const base = partner.get(key);
    if (base) {
      compareParameter(d, base.p, rp, at);
      continue;
    }
    if (moved.has(key)) continue;
    const required = rp.required === true || rp.in === 'path';
    d.add(
      required ? 'new-required-parameter' : 'new-optional-parameter',
      at,
      `${named(rp)} added${required ? ', required' : ''}`,
    );
  }
}

/**
 * The base's parameter for each of the revision's: by key, else by name where only one side has it.
 * A parameter found by name in another place has moved; one found nowhere is removed.
 */
function pairParameters(d: Differ, bs: Parameters, rs: Parameters, list: Location) {
  const moved = new Set<string>();
  const partner: Parameters = new Map();
  for (const [key, base] of bs) {
    if (rs.has(key)) {
      partner.set(key, base);
      continue;
    }
    const bp = base.p;
    const elsewhere = [...rs].find(([k, { p }]) => !bs.has(k) && sameName(p, bp));
    if (elsewhere && elsewhere[1].p.in === bp.in) {
      partner.set(elsewhere[0], base);
      continue;
    }
    if (elsewhere) {
      moved.add(elsewhere[0]);
      d.add(
        'parameter-in-changed',
        d.locate(elsewhere[1].raw, list),
        `${named(bp)} moved to ${String(elsewhere[1].p.in)}`,
      );
      continue;
    }
    let id: RuleId = bp.deprecated === true ? 'parameter-removed-after-deprecation' : 'parameter-removed';
    if (bp.deprecated === true && sunsetPending(bp['x-sunset'])) id = 'parameter-removed-before-sunset';
    d.add(id, list, `${named(bp)} removed`);
  }
  return { partner, moved };
}

/** One parameter on both sides: how it is sent, its lifecycle, its schema, and the rest of its keywords. */
function compareParameter(d: Differ, bp: Node, rp: Node, at: Location) {
  const label = named(rp);
  compareSending(d, bp, rp, at, label);
  if (Boolean(bp.deprecated) !== Boolean(rp.deprecated))
    d.add(
      rp.deprecated ? 'parameter-deprecated' : 'parameter-reactivated',
      d.at(at, 'deprecated'),
      `${label} ${rp.deprecated ? 'deprecated' : 'no longer deprecated'}`,
    );
  for (const c of compareLifecycle(bp, rp)) {
    const id = PARAMETER_LIFECYCLE[c.kind];
    if (id) d.add(id, d.at(at, c.keyword), c.text);
  }
  compareParameterSchema(d, bp, rp, at, label);
  d.annotations(bp, rp, ['description', 'example', 'examples'], at, `${label}: `);
  for (const c of compareContract(bp, rp)) d.add(c.kind, d.at(at, c.keyword), c.text);
  d.rest(bp, rp, PARAMETER_KEYS, at, `${label}: `);
}

/** Whether a client must send it, and how: style, explode, reserved characters, empty values. */
function compareSending(d: Differ, bp: Node, rp: Node, at: Location, label: string) {
  if (Boolean(bp.required) !== Boolean(rp.required) && rp.in !== 'path')
    d.add(
      rp.required ? 'parameter-became-required' : 'parameter-became-optional',
      d.at(at, 'required'),
      `${label} became ${rp.required ? 'required' : 'optional'}`,
    );
  if (style(bp) !== style(rp))
    d.add(
      'parameter-style-changed',
      d.at(at, 'style'),
      `${label}: style changed from ${style(bp)} to ${style(rp)}`,
    );
  if (explode(bp) !== explode(rp))
    d.add(
      'parameter-explode-changed',
      d.at(at, 'explode'),
      `${label}: explode changed to ${String(explode(rp))}`,
    );
  for (const [flag, [added, removed]] of [
    ['allowReserved', ['parameter-allow-reserved-added', 'parameter-allow-reserved-removed']],
    ['allowEmptyValue', ['parameter-allow-empty-value-added', 'parameter-allow-empty-value-removed']],
  ] as const)
    if (Boolean(bp[flag]) !== Boolean(rp[flag]))
      d.add(rp[flag] ? added : removed, d.at(at, flag), `${label}: ${flag} ${rp[flag] ? 'set' : 'unset'}`);
}

/**
 * The value's schema (or its `content`'s) and media type; in an exploded form one value and an
 * array of one are sent alike.
 */
function compareParameterSchema(d: Differ, bp: Node, rp: Node, at: Location, label: string) {
  let [bSchema, rSchema] = [bp.schema ?? firstSchema(bp.content), rp.schema ?? firstSchema(rp.content)];
  if (exploded(bp) && exploded(rp)) {
    // `x=1` is one value and an array of one alike: an exploded form serialises both the same.
    // Where the side with arrays still admits the other's one value as itself, it is compared as itself.
    const [bt, rt] = [typesOf(d.baseReader, bSchema), typesOf(d.revReader, rSchema)];
    const [ba, ra] = [bt?.includes('array') ?? false, rt?.includes('array') ?? false];
    if (!ba && ra && !covered(bt, rt!)) bSchema = { type: 'array', items: bSchema };
    if (ba && !ra && !covered(rt, bt!)) rSchema = { type: 'array', items: rSchema, maxItems: 1 };
  }
  const [bMedia, rMedia] = [Object.keys(asObject(bp.content))[0], Object.keys(asObject(rp.content))[0]];
  if (bMedia !== rMedia && (bMedia || rMedia))
    d.add(
      'parameter-media-type-changed',
      d.at(at, 'content'),
      `${label}: media type changed from ${bMedia ?? 'none'} to ${rMedia ?? 'none'}`,
    );
  d.compareSchema(bSchema, rSchema, 'parameter', label, d.locate(rp.schema, d.at(at, 'schema')));
}

const firstSchema = (content: unknown) => asObject(Object.values(asObject(content))[0]).schema;
const exploded = (p: Node) => p.schema !== undefined && style(p) === 'form' && explode(p);
const typesOf = (reader: SchemaReader, node: unknown) =>
  node === undefined ? undefined : typeList(reader.read(node).schema.type);
/** Whether every type of one list is a type of another (`integer` a `number`). */
const covered = (types: string[] | undefined, by: string[]) =>
  types !== undefined && types.every((t) => by.includes(t) || (t === 'integer' && by.includes('number')));
