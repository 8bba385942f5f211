import {
  contentItem,
  KINDS,
  type ContentCodes,
  type ContentDraw,
  type ContentItem,
  type ContentKind,
} from './content.ts';
import type { IdTable } from './ids.ts';

const DELETED = 1;
const REMOVED = 2;

/** The fields of a drawn item in 15 bits: subject, verb, cause, kind, byline, restricted. */
function pack(draw: ContentDraw): number {
  const { subject, verb, cause, kind, byline, restricted } = draw;
  return subject | (verb << 4) | (cause << 7) | (kind << 10) | (byline << 12) | (restricted ? 1 << 14 : 0);
}

function unpack(code: number): ContentCodes {
  const [subject, verb, cause] = [code & 15, (code >> 4) & 7, (code >> 7) & 7];
  return { subject, verb, cause, kind: (code >> 10) & 3, byline: (code >> 12) & 3 };
}

function grown<T extends Float64Array | Uint16Array | Uint8Array>(array: T, length: number): T {
  if (array.length === length) return array;
  const copy = new (array.constructor as new (n: number) => T)(length);
  copy.set(array.subarray(0, Math.min(array.length, length)));
  return copy;
}

/** The items that pages may show (live, unrestricted), by place; an item is made only when picked. */
export interface Pickable {
  length: number;
  item(index: number): ContentItem;
}

/**
 * The content items, as a map by id. The seeded items are columns (a packed code, a time and a
 * status a number each, their ids in the id table under their own number): an item becomes an
 * object when first asked for and stays that object, so a change to it is kept. Published items
 * are objects from the start. Iterates seeded items first, in the order they were made.
 */
export class ContentStore implements Iterable<[string, ContentItem]> {
  private codes = new Uint16Array(1024);
  private times = new Float64Array(1024);
  private status = new Uint8Array(1024);
  private seeded = 0;
  private removed = 0;
  private readonly made = new Map<number, ContentItem>();
  private readonly extras = new Map<string, ContentItem>();

  constructor(private readonly ids: IdTable) {}

  get size(): number {
    return this.seeded - this.removed + this.extras.size;
  }

  /** Adds a seeded item; its number is its id's number (seeded items are the first ids). */
  seed(draw: ContentDraw, published: number): number {
    const index = this.ids.add(draw.idBytes, 0);
    if (index !== this.seeded) throw new Error('Seeded items come before every other id');
    if (index === this.codes.length) this.resize(Math.max(1024, index * 2));
    this.codes[index] = pack(draw);
    this.times[index] = published;
    this.seeded++;
    return index;
  }

  /** Marks a seeded item deleted, while seeding. */
  seedDeletion(index: number): void {
    this.status[index]! |= DELETED;
  }

  /** Drops the spare room left by seeding. */
  seal(): void {
    this.resize(this.seeded);
  }

  get(id: string): ContentItem | undefined {
    const extra = this.extras.get(id);
    if (extra) return extra;
    const index = this.seededIndex(id);
    return index === undefined ? undefined : this.item(index);
  }

  /** The kind of an item, without making an object of it. */
  kindOf(id: string): ContentKind | undefined {
    const index = this.extras.has(id) ? undefined : this.seededIndex(id);
    if (index === undefined) return this.extras.get(id)?.kind;
    return this.made.get(index)?.kind ?? KINDS[(this.codes[index]! >> 10) & 3];
  }

  has(id: string): boolean {
    return this.extras.has(id) || this.seededIndex(id) !== undefined;
  }

  set(id: string, item: ContentItem): this {
    const index = this.seededIndex(id);
    if (index === undefined) this.extras.set(id, item);
    else this.made.set(index, item);
    return this;
  }

  delete(id: string): boolean {
    if (this.extras.delete(id)) return true;
    const index = this.seededIndex(id);
    if (index === undefined) return false;
    this.status[index]! |= REMOVED;
    this.made.delete(index);
    this.removed++;
    return true;
  }

  /** The first live, unrestricted item from the seeded number `from` on, made an object only then. */
  firstReadable(from = 0): ContentItem | undefined {
    for (let index = from; index < this.seeded; index++) if (this.readable(index)) return this.item(index);
    for (const item of this.extras.values()) if (!item.deleted && !item.restricted) return item;
    return undefined;
  }

  /** The live, unrestricted items, in order; with `below`, only seeded ones of a lower number. */
  readableItems(below?: number): Pickable {
    const seeded: number[] = [];
    const end = Math.min(below ?? this.seeded, this.seeded);
    for (let index = 0; index < end; index++) if (this.readable(index)) seeded.push(index);
    const extras =
      below === undefined
        ? [...this.extras.values()].filter((item) => !item.deleted && !item.restricted)
        : [];
    return {
      length: seeded.length + extras.length,
      item: (i) => (i < seeded.length ? this.item(seeded[i]!) : extras[i - seeded.length]!),
    };
  }

  *keys(): IterableIterator<string> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): IterableIterator<ContentItem> {
    for (const [, item] of this.entries()) yield item;
  }

  *entries(): IterableIterator<[string, ContentItem]> {
    for (let index = 0; index < this.seeded; index++)
      if (!(this.status[index]! & REMOVED)) yield [this.ids.id(index), this.item(index)];
    yield* this.extras.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, ContentItem]> {
    return this.entries();
  }

  private seededIndex(id: string): number | undefined {
    const index = this.ids.indexOf(id);
    return index !== undefined && index < this.seeded && !(this.status[index]! & REMOVED) ? index : undefined;
  }

  private readable(index: number): boolean {
    if (this.status[index]! & REMOVED) return false;
    const made = this.made.get(index);
    if (made) return !made.deleted && !made.restricted;
    return !(this.status[index]! & DELETED) && !(this.codes[index]! & (1 << 14));
  }

  private item(index: number): ContentItem {
    let item = this.made.get(index);
    if (!item) {
      const code = this.codes[index]!;
      const restricted = (code & (1 << 14)) !== 0;
      item = contentItem(this.ids.id(index), unpack(code), this.times[index]!, restricted);
      item.deleted = (this.status[index]! & DELETED) !== 0;
      this.made.set(index, item);
    }
    return item;
  }

  private resize(length: number): void {
    this.codes = grown(this.codes, length);
    this.times = grown(this.times, length);
    this.status = grown(this.status, length);
  }
}
