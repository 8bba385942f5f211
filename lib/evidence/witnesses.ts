/**
 * Why a body is worth keeping: the values at its JSON pointers that a contract revision could
 * reject. A revision that narrows a field (a bound, a pattern, an enum, a format, a type) is decided
 * by the body that holds the field's edge; a body is kept while it is the newest to hold one.
 */

/** A pointer with more distinct values than this is open: its values are no reason to keep a body. */
export const FEW_VALUES = 8;

/** One reason a body may be kept, and how well it holds it: the higher the score, the better. */
interface Reason {
  key: string;
  score: number;
  /** Lower first when a status holds more witnesses than its bound: top-level pointers, then types, then extremes, forms and values. */
  priority: number;
}

/** What one body holds, read once per body: its reasons, its few values, its length as JSON. */
interface Facts {
  reasons: Reason[];
  /** Per pointer, its values (as keys) and their reason; null when the body alone has too many. */
  values: Map<string, { reason: Reason; values: string[] } | null>;
  bytes: number;
}

/**
 * A pointer, interned: its text and its reasons' keys are built once per process, not once per body
 * (the client weighs every answer of a run). Past `MAX_POINTERS` (free-form keys), no more are kept.
 */
interface Pointer {
  text: string;
  depth: number;
  children: Map<string, Pointer>;
  keys: Map<string, string>;
}

const MAX_POINTERS = 100_000;
let interned = 0;
const pointer = (text: string, depth: number): Pointer => ({
  text,
  depth,
  children: new Map(),
  keys: new Map(),
});
const ROOT = pointer('', 0);

function child(at: Pointer, key: string): Pointer {
  let next = at.children.get(key);
  if (!next) {
    const token = key === '[]' ? key : key.replaceAll('~', '~0').replaceAll('/', '~1');
    next = pointer(`${at.text}/${token}`, at.depth + 1);
    if (interned++ < MAX_POINTERS) at.children.set(key, next);
  }
  return next;
}

function reasonKey(at: Pointer, reason: string): string {
  let key = at.keys.get(reason);
  if (key === undefined) at.keys.set(reason, (key = `${at.text} ${reason}`));
  return key;
}

/** What one body holds at one pointer. */
interface PointerStats {
  types: Set<string>;
  forms: Set<string>;
  min: Record<string, number>;
  max: Record<string, number>;
  values: Set<unknown> | null;
}

const RANK = { type: 0, extreme: 1, form: 2, value: 3 } as const;
/** A shape is the last reason: every other reason of a body already names a field of its shape. */
export const SHAPE_PRIORITY = 1e6;

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
/** The forms a string takes, the first that matches: what a `format` or a `pattern` tells apart. */
const FORMS: [string, RegExp][] = [
  ['empty', /^$/],
  ['date-time', new RegExp(String.raw`^${DATE}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$`)],
  ['date', new RegExp(`^${DATE}$`)],
  ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ['email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/],
  ['ipv4', /^\d{1,3}(\.\d{1,3}){3}$/],
  ['ipv6', /^(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}$|^[0-9a-f:]*::[0-9a-f:]*$/i],
  ['integer', /^[+-]?\d+$/],
  ['uri-http', /^http:\/\/\S*$/i],
  ['uri-https', /^https:\/\/\S*$/i],
  ['uri-other', /^[a-z][a-z0-9+.-]*:\S+$/i],
];

export function formOf(text: string): string {
  return FORMS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}

const typeOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as string);

/** The measures a value has, each kept as its pointer's least and greatest: length, value, items, properties. */
function measure(value: unknown, type: string): [string, number] | undefined {
  if (type === 'string') return ['length', (value as string).length];
  if (type === 'number') return ['number', value as number];
  if (type === 'array') return ['items', (value as unknown[]).length];
  if (type === 'object') return ['properties', Object.keys(value as object).length];
  return undefined;
}

function walk(value: unknown, where: Pointer, stats: Map<Pointer, PointerStats>): void {
  let at = stats.get(where);
  if (!at)
    stats.set(where, (at = { types: new Set(), forms: new Set(), min: {}, max: {}, values: new Set() }));
  const type = typeOf(value);
  at.types.add(type);
  const measured = measure(value, type);
  if (measured) {
    const [name, n] = measured;
    if (!(at.min[name]! <= n)) at.min[name] = n;
    if (!(at.max[name]! >= n)) at.max[name] = n;
  }
  if (type === 'string') at.forms.add(formOf(value as string));
  else if (type === 'number') at.forms.add(Number.isInteger(value) ? 'whole' : 'fraction');
  if (type === 'array') {
    // An array's items are one pointer: `/links/[]/href` whatever the index.
    const items = value as unknown[];
    if (items.length > 0) for (const item of items) walk(item, child(where, '[]'), stats);
  } else if (type === 'object')
    for (const [k, v] of Object.entries(value as object)) walk(v, child(where, k), stats);
  else if (at.values) {
    at.values.add(value);
    if (at.values.size > FEW_VALUES) at.values = null;
  }
}

/** A value as a key among its pointer's values: a text as itself, anything else marked apart. */
const valueKey = (v: unknown) => (typeof v === 'string' ? v : `\u0000${String(v)}`);

function factsOf(body: unknown): Facts {
  const stats = new Map<Pointer, PointerStats>();
  walk(body, ROOT, stats);
  const reasons: Reason[] = [];
  const values = new Map<string, { reason: Reason; values: string[] } | null>();
  for (const [where, at] of stats) {
    const rank = (r: number) => where.depth * 4 + r;
    const add = (reason: string, score: number, priority: number) =>
      reasons.push({ key: reasonKey(where, reason), score, priority });
    for (const type of at.types) add(`type ${type}`, 0, rank(RANK.type));
    for (const name of Object.keys(at.min)) {
      add(`least ${name}`, -at.min[name]!, rank(RANK.extreme));
      add(`most ${name}`, at.max[name]!, rank(RANK.extreme));
    }
    for (const form of at.forms) add(`form ${form}`, 0, rank(RANK.form));
    if (at.values === null) values.set(where.text, null);
    else if (at.values.size > 0) {
      const reason = { key: where.text, score: 0, priority: rank(RANK.value) };
      values.set(where.text, { reason, values: [...at.values].map(valueKey) });
    }
  }
  return { reasons, values, bytes: JSON.stringify(body)?.length ?? 0 };
}

// Facts are read once per body object: the client merges each answer into lists it merged before.
const cache = new WeakMap<object, Facts>();

export function facts(body: unknown): Facts {
  if (typeof body !== 'object' || body === null) return factsOf(body);
  let known = cache.get(body);
  if (!known) {
    known = factsOf(body);
    cache.set(body, known);
  }
  return known;
}

/** A body as the witnesses are chosen among: when it came, its shape, what it holds. */
export interface Candidate {
  at: string;
  shape: string;
  body: unknown;
}

/** A witness: its most urgent reason's priority, and how many reasons it holds. */
export interface Witness {
  priority: number;
  reasons: number;
}

/**
 * The witnesses among bodies of one operation, status and media type: for each reason, the body that
 * holds it best, the newest of equals (a later one of the same time counts as newer).
 */
export function witnesses<T extends Candidate>(candidates: T[]): Map<T, Witness> {
  // The holder of each reason and how well it holds it, in two maps: no object per offer.
  const holder = new Map<string, T>();
  const held = new Map<string, Reason>();
  const few = new Map<string, { reason: Reason; holders: Map<string, T> } | null>();
  const newer = (next: T, than: T) => next.at >= than.at;
  const offer = (candidate: T, r: Reason) => {
    const now = held.get(r.key);
    if (!now || r.score > now.score || (r.score === now.score && newer(candidate, holder.get(r.key)!))) {
      holder.set(r.key, candidate);
      held.set(r.key, r);
    }
  };
  for (const candidate of candidates) {
    const known = facts(candidate.body);
    for (const r of known.reasons) offer(candidate, r);
    offer(candidate, { key: `shape ${candidate.shape}`, score: 0, priority: SHAPE_PRIORITY });
    for (const [pointer, values] of known.values) {
      let seen = few.get(pointer);
      if (seen === null) continue;
      if (values === null) {
        few.set(pointer, null);
        continue;
      }
      if (!seen) few.set(pointer, (seen = { reason: values.reason, holders: new Map() }));
      for (const value of values.values) {
        const now = seen.holders.get(value);
        if (!now || newer(candidate, now)) seen.holders.set(value, candidate);
      }
      if (seen.holders.size > FEW_VALUES) few.set(pointer, null);
    }
  }
  const kept = new Map<T, Witness>();
  const mark = (candidate: T, priority: number) => {
    const known = kept.get(candidate);
    if (!known) kept.set(candidate, { priority, reasons: 1 });
    else {
      known.priority = Math.min(known.priority, priority);
      known.reasons++;
    }
  };
  for (const [key, candidate] of holder) mark(candidate, held.get(key)!.priority);
  for (const values of few.values())
    if (values) for (const candidate of values.holders.values()) mark(candidate, values.reason.priority);
  return kept;
}
