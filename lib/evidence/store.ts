import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { DAY } from '../time.ts';
import { facts, witnesses } from './witnesses.ts';

/** One response body kept as evidence: when it came, its media type, its shape and the body itself. */
export interface EvidenceBody {
  at: string;
  mediaType: string;
  /** A hash of the body's fields and JSON types (never its values): each shape keeps a body. */
  shape: string;
  body: unknown;
}

/** A body with the operation and status that answered it: what a test records and the gate reads. */
export interface EvidenceEntry extends EvidenceBody {
  operation: string;
  status: number;
}

/** What the store keeps for one operation and status: one file, `<operationId>.<status>.json`. */
export interface EvidenceFile {
  operation: string;
  status: number;
  bodies: EvidenceBody[];
}

/**
 * The most bodies kept per operation and status: the witnesses of its fields, the most urgent first.
 * Twenty hold the edges of a body's top-level fields and of most nested ones: equal edges (a UUID's
 * length, a constant) fall to the newest body, so few bodies hold many reasons.
 */
export const KEEP_PER_STATUS = 20;
/** The most bytes (as JSON) kept per operation and status, whatever the count: a long list is one body. */
export const KEEP_BYTES_PER_STATUS = 128 * 1024;
/** A body longer than this (as JSON) is not kept: the store stays small enough to travel nightly. */
export const MAX_EVIDENCE_BYTES = 128 * 1024;

const FILE = /^([A-Za-z0-9_-]+)\.(\d{3})\.json$/;

/** The fields and JSON types of a body, arrays' elements as `[]`, hashed: equal for the same shape. */
export function shapeOf(body: unknown): string {
  const seen = new Set<string>();
  const walk = (value: unknown, pointer: string) => {
    const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    seen.add(`${pointer}:${type}`);
    if (Array.isArray(value)) for (const v of value) walk(v, `${pointer}/[]`);
    else if (type === 'object')
      for (const [k, v] of Object.entries(value as object)) walk(v, `${pointer}/${k.replaceAll('/', '~1')}`);
  };
  walk(body, '');
  return createHash('sha256')
    .update([...seen].sort().join('\n'))
    .digest('hex')
    .slice(0, 16);
}

/** A scrubbed body as evidence, or undefined when it is too long to keep. */
export function evidenceOf(
  operation: string,
  status: number,
  mediaType: string,
  body: unknown,
  at = new Date().toISOString(),
): EvidenceEntry | undefined {
  if (JSON.stringify(body).length > MAX_EVIDENCE_BYTES) return undefined;
  return { operation, status, mediaType, at, shape: shapeOf(body), body };
}

const keyOf = (e: { operation: string; status: number }) => `${e.operation}.${e.status}`;

/**
 * Bodies merged into a bounded set, per operation and status: the witnesses (`witnesses.ts`) of
 * each media type, the newest body for each reason (the extremes, few values, forms and JSON types
 * of each pointer, and each shape), so a revision that narrows a field any kept body shows is
 * decided. Past `keep` bodies or `KEEP_BYTES_PER_STATUS`, the most urgent witnesses stay: top-level
 * pointers before nested ones; types, then extremes, forms, values, shapes; then the body holding
 * most reasons, the newest. The first always stays. Returned newest first.
 */
export function mergeBodies<T extends EvidenceBody>(old: T[], added: T[], keep = KEEP_PER_STATUS): T[] {
  const all = [...old, ...added];
  const byType = new Map<string, T[]>();
  for (const b of all)
    byType
      .set(b.mediaType, byType.get(b.mediaType) ?? [])
      .get(b.mediaType)!
      .push(b);
  const ranked = [...byType.values()].flatMap((group) => [...witnesses(group)]);
  const order = new Map(all.map((b, i) => [b, i]));
  ranked.sort(
    ([a, p], [b, q]) =>
      p.priority - q.priority ||
      q.reasons - p.reasons ||
      b.at.localeCompare(a.at) ||
      order.get(b)! - order.get(a)!,
  );
  const kept: T[] = [];
  let bytes = 0;
  for (const [b] of ranked) {
    if (kept.length >= keep) break;
    const size = facts(b.body).bytes;
    if (kept.length > 0 && bytes + size > KEEP_BYTES_PER_STATUS) continue;
    kept.push(b);
    bytes += size;
  }
  return kept.sort((a, b) => b.at.localeCompare(a.at));
}

/** How many entries of each operation and status a list held when `addEvidence` left it. */
const counted = new WeakMap<EvidenceEntry[], { length: number; counts: Map<string, number> }>();

function countsOf(list: EvidenceEntry[]): Map<string, number> {
  const known = counted.get(list);
  if (known?.length === list.length) return known.counts;
  const counts = new Map<string, number>();
  for (const e of list) counts.set(keyOf(e), (counts.get(keyOf(e)) ?? 0) + 1);
  return counts;
}

/**
 * Adds entries to a list kept bounded as `mergeBodies` bounds the store (a test's, a run's). The
 * client adds every answer of a run, so an operation and status is merged again only past twice
 * `keep` entries, each merge weighing `keep` new ones at once: between merges a list holds more.
 */
export function addEvidence(list: EvidenceEntry[], added: EvidenceEntry[], keep = KEEP_PER_STATUS): void {
  const counts = countsOf(list);
  list.push(...added);
  for (const e of added) counts.set(keyOf(e), (counts.get(keyOf(e)) ?? 0) + 1);
  const full = new Map<string, EvidenceEntry[]>();
  for (const e of added) if (counts.get(keyOf(e))! > 2 * keep) full.set(keyOf(e), []);
  if (full.size > 0) {
    for (const e of list) full.get(keyOf(e))?.push(e);
    const kept = new Set([...full.values()].flatMap((group) => mergeBodies([], group, keep)));
    const drop = new Set([...full.values()].flat().filter((e) => !kept.has(e)));
    list.splice(0, list.length, ...list.filter((e) => !drop.has(e)));
    for (const [key, group] of full) counts.set(key, group.length - group.filter((e) => drop.has(e)).length);
  }
  counted.set(list, { length: list.length, counts });
}

/** The store's files, each read; an unreadable one is skipped and counted, never fatal. */
export function readStore(dir: string): { files: EvidenceFile[]; unreadable: string[] } {
  const files: EvidenceFile[] = [];
  const unreadable: string[] = [];
  if (!existsSync(dir)) return { files, unreadable };
  for (const name of readdirSync(dir).sort()) {
    const match = FILE.exec(name);
    if (!match) continue;
    try {
      const file = JSON.parse(readFileSync(join(dir, name), 'utf8')) as EvidenceFile;
      if (!Array.isArray(file.bodies)) throw new Error('no bodies');
      files.push({ operation: match[1]!, status: Number(match[2]), bodies: file.bodies });
    } catch {
      unreadable.push(name);
    }
  }
  return { files, unreadable };
}

function writeFile(dir: string, file: EvidenceFile): void {
  const path = join(dir, `${keyOf(file)}.json`);
  if (file.bodies.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  // One body a line, compact: a night's change reads as the lines of the bodies it changed.
  const { bodies, ...head } = file;
  const text = `${JSON.stringify(head).slice(0, -1)},"bodies":[\n${bodies.map((b) => JSON.stringify(b)).join(',\n')}\n]}\n`;
  // Written whole, then renamed: a reader never sees half a file.
  writeFileSync(`${path}.${process.pid}`, text);
  renameSync(`${path}.${process.pid}`, path);
}

/** Every stored body as an entry, for the gate. */
export function storedEvidence(dir: string): EvidenceEntry[] {
  return readStore(dir).files.flatMap((f) =>
    f.bodies.map((b) => ({ ...b, operation: f.operation, status: f.status })),
  );
}

/** Merges a run's evidence into the store, each operation and status bounded. */
export function keepEvidence(dir: string, entries: EvidenceEntry[], keep = KEEP_PER_STATUS): StoreSize {
  mkdirSync(dir, { recursive: true });
  const stored = new Map(readStore(dir).files.map((f) => [keyOf(f), f]));
  const added = new Map<string, EvidenceEntry[]>();
  for (const e of entries) added.set(keyOf(e), [...(added.get(keyOf(e)) ?? []), e]);
  for (const [key, group] of added) {
    const { operation, status } = group[0]!;
    const bodies = group.map(({ operation: _o, status: _s, ...body }) => body);
    writeFile(dir, { operation, status, bodies: mergeBodies(stored.get(key)?.bodies ?? [], bodies, keep) });
  }
  return storeSize(dir);
}

export interface StoreSize {
  files: number;
  bodies: number;
  bytes: number;
}

export function storeSize(dir: string): StoreSize {
  const { files } = readStore(dir);
  const bytes = files.reduce((n, f) => n + statSync(join(dir, `${keyOf(f)}.json`)).size, 0);
  return { files: files.length, bodies: files.reduce((n, f) => n + f.bodies.length, 0), bytes };
}

export interface PruneOptions {
  keep?: number;
  /** Bodies older than this many days go. */
  olderThanDays?: number;
  /** Operations whose bodies all go (an operation the contract no longer has). */
  operations?: string[];
  now?: number;
}

/** Prunes the store in place: what is left, what went, and the files that could not be read. */
export function pruneStore(dir: string, options: PruneOptions = {}) {
  const { keep = KEEP_PER_STATUS, olderThanDays, operations = [], now = Date.now() } = options;
  const { files, unreadable } = readStore(dir);
  const before = storeSize(dir);
  const cutoff = olderThanDays === undefined ? '' : new Date(now - olderThanDays * DAY).toISOString();
  for (const file of files) {
    const bodies = operations.includes(file.operation)
      ? []
      : mergeBodies(file.bodies, [], keep).filter((b) => b.at >= cutoff);
    writeFile(dir, { ...file, bodies });
  }
  for (const name of unreadable) rmSync(join(dir, name), { force: true });
  const after = storeSize(dir);
  return { before, after, removedUnreadable: unreadable };
}
