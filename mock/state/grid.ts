import { DAY, HOUR } from './clock.ts';
import { drawContent, type ContentDraw } from './content.ts';
import { TYPE_CODES } from './feed.ts';
import { Random } from './random.ts';

/**
 * The feed on the real clock is laid on slots of this length, counted from the epoch; each slot's
 * changes come from streams keyed by the seed and the slot alone, so the same seed gives the same
 * changes at the same times whenever the mock started.
 */
export const SLOT = HOUR;
/** Updates and deletions name items created at most this many slots before: 30 days. */
export const LIFE_SLOTS = 30 * 24;
/**
 * Items that exist whatever the time, published long before any feed the mock serves: the
 * examples and pages come from them, and no change ever deletes one.
 */
export const ARCHIVE_ITEMS = 200;
/** Of the changes drawn, creations; the rest are updates. */
const CREATE_SHARE = 0.1;
/** Of the items created, those deleted within their life: some 3 deletions in 100 changes. */
const DELETED_SHARE = 0.3;
/** Of the updates, those of an archive item. */
const ARCHIVE_SHARE = 0.1;
/** One burst every so many days, epoch-aligned: three or four in any 90 days. */
const BURST_EVERY_DAYS = 25;
/** The changes of a burst, all in one millisecond: always more than a page holds. */
const BURST_SIZE = [201, 450] as const;
/** Archive items were published over two years from here. */
const ARCHIVE_FROM = Date.UTC(2016, 0, 1);
/** What each keyed stream is for, beside the seed. */
const STREAMS = { slot: 1, pick: 2, burst: 3, archive: 4, phase: 5 } as const;

export const slotOf = (time: number) => Math.floor(time / SLOT);

/** One slot's changes in time order: item numbers (archive items first), and a creation's draw. */
export interface SlotChanges {
  times: number[];
  types: number[];
  items: number[];
  draws: (ContentDraw | undefined)[];
}

/** The archive: each item's draw (the first one readable, the second restricted) and its time. */
export function archive(seed: number): { draw: ContentDraw; published: number }[] {
  const random = Random.keyed(seed, STREAMS.archive);
  return Array.from({ length: ARCHIVE_ITEMS }, (_, i) => {
    const draw = drawContent(random);
    if (i < 2) draw.restricted = i === 1;
    return { draw, published: ARCHIVE_FROM + random.int(0, 730) * DAY + random.int(0, DAY - 1) };
  });
}

interface Entry {
  time: number;
  type: number;
  item: number;
  draw?: ContentDraw;
  life?: number;
  burst?: boolean;
}

/** A whole number of mean `mean`: between half and one and a half of it, the fraction by chance. */
function drawCount(random: Random, mean: number): number {
  const x = mean * (0.5 + random.int(0, 999_999) / 1_000_000);
  return Math.floor(x) + (random.int(0, 999_999) < (x % 1) * 1_000_000 ? 1 : 0);
}

/** Where `generate` stood: how far a rewind goes back. */
export interface GridMark {
  next: number;
  count: number;
}

/**
 * The changes of the real-clock feed, slot after slot from `from`. A slot draws its changes'
 * times and creations from one stream and the items its updates name from another, so what an
 * update picks never moves a creation. An update names an archive item or one created in the
 * `LIFE_SLOTS` before and alive at its time; a created item's deletion is drawn with it and comes
 * within its life. Starting `LIFE_SLOTS` before the first slot it serves, a grid knows every
 * item such a slot may name. Items are columns (created, deleted), not objects.
 */
export class FeedGrid {
  private born = new Float64Array(1024);
  private dies = new Float64Array(1024);
  private count = 0;
  /** The first item of each slot generated, by slot from `from`. */
  private readonly firsts: number[] = [];
  /** Deletions to come, by slot: kept from the mark on, so a rewound slot finds them again. */
  private readonly deaths = new Map<number, number[]>();
  private keepFrom = Infinity;
  private next: number;
  private readonly perSlot: number;
  private readonly burstPhase: number;

  constructor(
    private readonly seed: number,
    perDay: number,
    readonly from: number,
  ) {
    this.next = from;
    // Deletions come on top of the changes drawn: the whole is `perDay`.
    this.perSlot = (perDay * SLOT) / DAY / (1 + CREATE_SHARE * DELETED_SHARE);
    this.burstPhase = Random.keyed(seed, STREAMS.phase).int(0, BURST_EVERY_DAYS - 1);
  }

  get nextSlot(): number {
    return this.next;
  }

  /** Where it stands: `rewind` comes back here, with the deletions still to come. */
  mark(): GridMark {
    this.keepFrom = this.next;
    return { next: this.next, count: this.count };
  }

  rewind(mark: GridMark): void {
    this.next = mark.next;
    this.count = mark.count;
    this.firsts.length = mark.next - this.from;
    const last = ARCHIVE_ITEMS + mark.count;
    for (const [slot, items] of this.deaths)
      if (slot >= mark.next)
        this.deaths.set(
          slot,
          items.filter((item) => item < last),
        );
  }

  /** The changes of the next slot, in time order; items created in it are numbered in that order. */
  generate(): SlotChanges {
    const slot = this.next++;
    const entries = this.drawn(slot);
    const picks = Random.keyed(this.seed, STREAMS.pick, slot);
    const burst = new Set<number>();
    this.firsts.push(this.count);
    for (const entry of entries) {
      if (entry.type === TYPE_CODES.CREATE) entry.item = this.add(entry.time, entry.life!);
      else if (entry.type === TYPE_CODES.UPDATE)
        entry.item = this.pick(picks, slot, entry.time, entry.burst ? burst : undefined);
    }
    return {
      times: entries.map((e) => e.time),
      types: entries.map((e) => e.type),
      items: entries.map((e) => e.item),
      draws: entries.map((e) => e.draw),
    };
  }

  /** The slot's changes but the items updates name, in time order (a stable sort keeps draw order). */
  private drawn(slot: number): Entry[] {
    const start = slot * SLOT;
    const random = Random.keyed(this.seed, STREAMS.slot, slot);
    const entries: Entry[] = [];
    for (let i = drawCount(random, this.perSlot); i > 0; i--) {
      const time = start + random.int(0, SLOT - 1);
      if (!random.chance(CREATE_SHARE)) {
        entries.push({ time, type: TYPE_CODES.UPDATE, item: -1 });
        continue;
      }
      const draw = drawContent(random);
      // Deleted in a later slot of its life, or never.
      const life = random.chance(DELETED_SHARE) ? random.int(HOUR, (LIFE_SLOTS - 2) * SLOT) : Infinity;
      entries.push({ time, type: TYPE_CODES.CREATE, item: -1, draw, life });
    }
    for (const item of this.deaths.get(slot) ?? [])
      entries.push({ time: this.dies[item - ARCHIVE_ITEMS]!, type: TYPE_CODES.DELETE, item });
    if (slot < this.keepFrom) this.deaths.delete(slot);
    const burst = this.burstIn(slot);
    for (let i = 0; i < (burst?.size ?? 0); i++)
      entries.push({ time: burst!.time, type: TYPE_CODES.UPDATE, item: -1, burst: true });
    return entries.sort((a, b) => a.time - b.time);
  }

  /** The burst of the slot, if the slot has one: epoch-aligned days, a drawn hour, time and size. */
  private burstIn(slot: number): { time: number; size: number } | undefined {
    const day = Math.floor((slot * SLOT) / DAY);
    if ((day + this.burstPhase) % BURST_EVERY_DAYS !== 0) return undefined;
    const random = Random.keyed(this.seed, STREAMS.burst, day);
    if (slot !== (day * DAY) / SLOT + random.int(0, DAY / SLOT - 1)) return undefined;
    return { time: slot * SLOT + random.int(0, SLOT - 1), size: random.int(...BURST_SIZE) };
  }

  private add(time: number, life: number): number {
    if (this.count === this.born.length) {
      const [born, dies] = [new Float64Array(this.count * 2), new Float64Array(this.count * 2)];
      born.set(this.born);
      dies.set(this.dies);
      [this.born, this.dies] = [born, dies];
    }
    this.born[this.count] = time;
    this.dies[this.count] = time + life;
    const item = ARCHIVE_ITEMS + this.count++;
    if (life !== Infinity) {
      const at = slotOf(time + life);
      const due = this.deaths.get(at);
      if (due) due.push(item);
      else this.deaths.set(at, [item]);
    }
    return item;
  }

  /**
   * An item alive at `time`: an archive one, or one created in an earlier slot of the life before
   * and not yet deleted, by a few tries; in a burst, one not named yet.
   */
  private pick(random: Random, slot: number, time: number, taken?: Set<number>): number {
    const free = (item: number) => !taken?.has(item) && (taken?.add(item) ?? true);
    for (let tries = 0; tries < 8; tries++) {
      if (random.chance(ARCHIVE_SHARE)) {
        const item = random.int(0, ARCHIVE_ITEMS - 1);
        if (free(item)) return item;
        continue;
      }
      const at = slot - random.int(1, LIFE_SLOTS - 1) - this.from;
      if (at < 0) continue;
      const [first, end] = [this.firsts[at]!, this.firsts[at + 1]!];
      if (end === first) continue;
      const index = random.int(first, end - 1);
      if (this.dies[index]! > time && free(ARCHIVE_ITEMS + index)) return ARCHIVE_ITEMS + index;
    }
    return random.int(0, ARCHIVE_ITEMS - 1);
  }
}
