import { DAY } from './clock.ts';
import { contentItem } from './content.ts';
import type { ContentStore } from './content-store.ts';
import { CHANGE_TYPES, resized, TYPE_CODES, type ChangeLog, type Columns } from './feed.ts';
import { archive, FeedGrid, LIFE_SLOTS, SLOT, slotOf, type GridMark, type SlotChanges } from './grid.ts';
import { formatUuid, type IdTable } from './ids.ts';
import { LOG_DAYS } from './seed.ts';

/** Changes a day the real-clock feed publishes unless told otherwise: about the real feed's. */
export const DEFAULT_CHANGES_A_DAY = 1_000;

/** Columns that grow as changes come: the history's length is known only once drawn. */
class ColumnsBuilder {
  private columns: Columns;
  private length = 0;

  constructor(capacity: number) {
    this.columns = resized(undefined, Math.max(1024, capacity));
  }

  push(time: number, item: number, type: number): void {
    if (this.length === this.columns.times.length) this.columns = resized(this.columns, this.length * 2);
    this.columns.times[this.length] = time;
    this.columns.items[this.length] = item;
    this.columns.types[this.length++] = type;
  }

  done(): Columns {
    return resized(this.columns, this.length);
  }
}

/** Where a state keeps what publishing changes, and the steps that undo it on a reset. */
export interface FeedTarget {
  content: ContentStore;
  log: ChangeLog;
  ids: IdTable;
  undo: (() => void)[];
}

/**
 * The feed on the real clock, a function of the seed and the time: the archive, then the grid's
 * changes of the last `LOG_DAYS` up to `now` seeded as columns (their items seeded in the order
 * they were created), then, as time passes, each change appended once its time has come.
 */
export class LiveFeed {
  private readonly grid: FeedGrid;
  private slot: SlotChanges;
  private cursor = 0;
  private readonly start: { slot: SlotChanges; cursor: number; mark: GridMark };
  /** Ids of the items created since the start, by item number. */
  private readonly created = new Map<number, string>();
  private readonly seededItems: number;
  readonly history: Columns;

  constructor(
    seed: number,
    readonly perDay: number,
    now: number,
    private readonly target: FeedTarget,
  ) {
    const { content } = target;
    for (const { draw, published } of archive(seed)) content.seed(draw, published);
    const first = slotOf(now - LOG_DAYS * DAY);
    this.grid = new FeedGrid(seed, perDay, first - LIFE_SLOTS);
    const columns = new ColumnsBuilder(Math.ceil((LOG_DAYS + 1) * perDay * 1.1));
    this.slot = { times: [], types: [], items: [], draws: [] };
    while (this.grid.nextSlot <= slotOf(now)) {
      // Slots before the first served only make the items the served ones may name.
      const served = this.grid.nextSlot >= first;
      const slot = (this.slot = this.grid.generate());
      for (this.cursor = 0; this.cursor < slot.times.length; this.cursor++) {
        const [time, item, type] = [
          slot.times[this.cursor]!,
          slot.items[this.cursor]!,
          slot.types[this.cursor]!,
        ];
        if (time > now) break;
        if (type === TYPE_CODES.CREATE) content.seed(slot.draws[this.cursor]!, time);
        if (type === TYPE_CODES.DELETE) content.seedDeletion(item);
        if (served) columns.push(time, item, type);
      }
    }
    content.seal();
    this.seededItems = content.size;
    this.history = columns.done();
    this.start = { slot: this.slot, cursor: this.cursor, mark: this.grid.mark() };
  }

  /** Appends every change whose time has come by `now`, slot after slot. */
  catchUp(now: number): void {
    for (;;) {
      if (this.cursor === this.slot.times.length) {
        if (this.grid.nextSlot * SLOT > now) return;
        this.slot = this.grid.generate();
        this.cursor = 0;
        continue;
      }
      if (this.slot.times[this.cursor]! > now) return;
      this.apply(this.cursor++);
    }
  }

  /** Back to the start: what was appended since is undone by the state, and comes again in time. */
  rewind(): void {
    this.grid.rewind(this.start.mark);
    this.slot = this.start.slot;
    this.cursor = this.start.cursor;
  }

  private apply(at: number): void {
    const { content, log, ids, undo } = this.target;
    const [time, item, type] = [this.slot.times[at]!, this.slot.items[at]!, this.slot.types[at]!];
    const draw = this.slot.draws[at];
    let contentId = item < this.seededItems ? ids.id(item) : this.created.get(item)!;
    if (draw) {
      contentId = formatUuid(draw.idBytes, 0);
      content.set(contentId, contentItem(contentId, draw, time, draw.restricted));
      this.created.set(item, contentId);
      undo.push(() => {
        content.delete(contentId);
        this.created.delete(item);
      });
    } else if (type === TYPE_CODES.DELETE) {
      const deleted = content.get(contentId);
      if (deleted && !deleted.deleted) {
        deleted.deleted = true;
        undo.push(() => {
          deleted.deleted = false;
        });
      }
    }
    log.append({ time, contentId, type: CHANGE_TYPES[type]! });
  }
}
