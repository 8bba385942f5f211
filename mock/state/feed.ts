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

/**
 * The change log: every change in the order it happened, append-only. Times never go back, so a
 * position written as (time, offset among the changes of that time) stays valid however much is
 * appended, and is found by binary search, not by scanning.
 */
export class ChangeLog {
  private readonly times: number[] = [];
  private readonly changes: Change[] = [];
  private truncations = 0;

  /** Changes whenever an index may come to hold another change (after a truncation). */
  get generation(): number {
    return this.truncations;
  }

  get length(): number {
    return this.changes.length;
  }

  get lastTime(): number | undefined {
    return this.times[this.times.length - 1];
  }

  at(index: number): Change | undefined {
    return this.changes[index];
  }

  append(change: Change): void {
    const last = this.lastTime;
    if (last !== undefined && change.time < last)
      throw new Error('The change log only moves forward in time');
    this.times.push(change.time);
    this.changes.push(change);
  }

  /** Forgets every change from `length` on: how a reset drops what was published. */
  truncate(length: number): void {
    if (length < this.changes.length) this.truncations++;
    this.times.length = length;
    this.changes.length = length;
  }

  slice(from: number, to: number): Change[] {
    return this.changes.slice(from, to);
  }

  /** Index of the first change at or after `time`. */
  firstAtOrAfter(time: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first change strictly after `time`. */
  firstAfter(time: number): number {
    return this.firstAtOrAfter(time + 1);
  }

  positionOf(index: number, fallbackTime: number): Position {
    const next = this.times[index];
    const previous = this.changes[index - 1];
    const time = next ?? this.lastTime ?? fallbackTime;
    return { time, offset: index - this.firstAtOrAfter(time), lastId: previous?.contentId ?? '' };
  }

  indexOf(position: Position): number {
    return this.firstAtOrAfter(position.time) + position.offset;
  }
}

/** The opaque `page` token: base64url of `time#offset#lastId`, as the real service happens to use. */
export function encodePosition(position: Position): string {
  return Buffer.from(`${position.time}#${position.offset}#${position.lastId}`).toString('base64url');
}

export function decodePosition(token: string): Position | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) return undefined;
  // The last id is a whole UUID or nothing: a token cut short is no token.
  const match =
    /^(\d{1,15})#(\d{1,9})#((?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?)$/.exec(
      Buffer.from(token, 'base64url').toString('utf8'),
    );
  if (!match) return undefined;
  return { time: Number(match[1]), offset: Number(match[2]), lastId: match[3]! };
}
