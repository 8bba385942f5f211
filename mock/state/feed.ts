import { UUID_TEXT, type IdTable } from './ids.ts';

export type ChangeType = 'CREATE' | 'UPDATE' | 'DELETE';

export interface Change {
  time: number;
  contentId: string;
  type: ChangeType;
}

/** Where a reader stands in the log: the time of the next change and how many at that time are read. */
export interface Position {
  time: number;
  offset: number;
  lastId: string;
}

/** The change types by code, as the log's type column stores them. */
export const CHANGE_TYPES: readonly ChangeType[] = ['CREATE', 'UPDATE', 'DELETE'];
export const TYPE_CODES: Readonly<Record<ChangeType, number>> = { CREATE: 0, UPDATE: 1, DELETE: 2 };

/** The seeded changes as columns: times in order, item numbers (in the id table) and type codes. */
export interface Columns {
  times: Float64Array;
  items: Uint32Array;
  types: Uint8Array;
}

/**
 * The change log: every change in the order it happened, append-only. Times never go back, so a
 * position written as (time, offset among the changes of that time) stays valid however much is
 * appended, and is found by binary search, not by scanning. Stored as columns (a time, an item
 * number and a type code per change, 13 bytes), so millions of changes fit; a change becomes an
 * object only when read.
 */
export class ChangeLog {
  private columns: Columns = {
    times: new Float64Array(0),
    items: new Uint32Array(0),
    types: new Uint8Array(0),
  };
  private count = 0;
  private truncations = 0;
  private referencesByTime = false;

  constructor(private readonly ids: IdTable) {}

  /**
   * Takes the seeded changes, in order, as they are: the log must be empty. A log whose first
   * change depends on when it started (the real-clock feed) numbers changes by time, not by place.
   */
  load(columns: Columns, options: { referencesByTime?: boolean } = {}): void {
    if (this.count > 0) throw new Error('Only an empty change log takes seeded changes');
    this.columns = columns;
    this.count = columns.times.length;
    this.referencesByTime = options.referencesByTime === true;
  }

  /**
   * The number a change's publish reference carries beside its time: its place in the log, or, by
   * time, its place among the changes of its millisecond, the same whenever the log began.
   */
  reference(index: number): number {
    return this.referencesByTime ? index - this.firstAtOrAfter(this.timeAt(index)!) : index;
  }

  /** Changes whenever an index may come to hold another change (after a truncation). */
  get generation(): number {
    return this.truncations;
  }

  get length(): number {
    return this.count;
  }

  get lastTime(): number | undefined {
    return this.count > 0 ? this.columns.times[this.count - 1] : undefined;
  }

  at(index: number): Change | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    const { times, items, types } = this.columns;
    return { time: times[index]!, contentId: this.ids.id(items[index]!), type: CHANGE_TYPES[types[index]!]! };
  }

  /** The time of the change at `index`, without making an object of it. */
  timeAt(index: number): number | undefined {
    return index >= 0 && index < this.count ? this.columns.times[index] : undefined;
  }

  /** The item id of the change at `index`, without making an object of it. */
  contentIdAt(index: number): string | undefined {
    return index >= 0 && index < this.count ? this.ids.id(this.columns.items[index]!) : undefined;
  }

  append(change: Change): void {
    const last = this.lastTime;
    if (last !== undefined && change.time < last)
      throw new Error('The change log only moves forward in time');
    if (this.count === this.columns.times.length) this.grow();
    const { times, items, types } = this.columns;
    times[this.count] = change.time;
    items[this.count] = this.ids.intern(change.contentId);
    types[this.count] = TYPE_CODES[change.type];
    this.count++;
  }

  /** Forgets every change from `length` on: how a reset drops what was published. */
  truncate(length: number): void {
    if (length < this.count) {
      this.truncations++;
      this.count = length;
    }
  }

  slice(from: number, to: number): Change[] {
    const [start, end] = [clamp(from, this.count), clamp(to, this.count)];
    const changes: Change[] = [];
    for (let i = start; i < end; i++) changes.push(this.at(i)!);
    return changes;
  }

  /** Index of the first change at or after `time`. */
  firstAtOrAfter(time: number): number {
    const times = this.columns.times;
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid]! < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first change strictly after `time`. */
  firstAfter(time: number): number {
    return this.firstAtOrAfter(time + 1);
  }

  positionOf(index: number, fallbackTime: number): Position {
    const time = this.timeAt(index) ?? this.lastTime ?? fallbackTime;
    const lastId = this.contentIdAt(index - 1) ?? '';
    return { time, offset: index - this.firstAtOrAfter(time), lastId };
  }

  indexOf(position: Position): number {
    return this.firstAtOrAfter(position.time) + position.offset;
  }

  /** Room for more published changes: a quarter more, so appends stay cheap on a large log. */
  private grow(): void {
    this.columns = resized(this.columns, Math.max(1024, Math.ceil(this.count * 1.25)));
  }
}

/** New columns of `length` changes, holding as many of `from`'s first changes as fit. */
export function resized(from: Columns | undefined, length: number): Columns {
  const columns = {
    times: new Float64Array(length),
    items: new Uint32Array(length),
    types: new Uint8Array(length),
  };
  if (from) {
    const kept = Math.min(length, from.times.length);
    columns.times.set(from.times.subarray(0, kept));
    columns.items.set(from.items.subarray(0, kept));
    columns.types.set(from.types.subarray(0, kept));
  }
  return columns;
}

/** Array.prototype.slice's reading of an index: negative counts from the end. */
function clamp(index: number, length: number): number {
  const whole = Math.trunc(index) || 0;
  return whole < 0 ? Math.max(length + whole, 0) : Math.min(whole, length);
}

/** The opaque `page` token: base64url of `time#offset#lastId`, as the real service happens to use. */
export function encodePosition(position: Position): string {
  return Buffer.from(`${position.time}#${position.offset}#${position.lastId}`).toString('base64url');
}

/**
 * A position as a token carries it, decoded: `time#offset#lastId`, the last id whole or none. No
 * groups, so a pattern built around it (a token with more appended) keeps its own.
 */
export const POSITION_TEXT = `\\d{1,15}#\\d{1,9}#(?:${UUID_TEXT})?`;
const POSITION = new RegExp(`^${POSITION_TEXT}$`);

export function decodePosition(token: string): Position | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) return undefined;
  const text = Buffer.from(token, 'base64url').toString('utf8');
  // The last id is a whole UUID or nothing: a token cut short is no token.
  if (!POSITION.test(text)) return undefined;
  const [time, offset, lastId] = text.split('#');
  return { time: Number(time), offset: Number(offset), lastId: lastId! };
}
