import { DAY, HOUR } from './clock.ts';
import { drawContent } from './content.ts';
import type { ContentStore } from './content-store.ts';
import { TYPE_CODES, type Columns } from './feed.ts';
import type { Random } from './random.ts';

/** The seeded log spans this many days before the start time, more than the 90-day window. */
export const LOG_DAYS = 120;
/** Changes sharing one timestamp: [days before start, count]. Three fall inside the 90-day window. */
const BURSTS: [number, number][] = [
  [100, 300],
  [75, 230],
  [40, 420],
  [10, 260],
];

/** Bits of the whole numbers radixSort sorts: more than the log's offsets need (LOG_DAYS in ms). */
const RADIX_BITS = 34;

/**
 * Sorts whole numbers in [0, 2^34), ascending, in two passes over 17 bits each (a radix sort): for
 * millions of numbers several times faster than a comparison sort.
 */
export function radixSort(keys: Float64Array): Float64Array {
  let from: Float64Array = keys;
  let to: Float64Array = new Float64Array(keys.length);
  const length = keys.length;
  // The low 17 bits, then the next 17: ToInt32 of the scaled number keeps its low 32 bits.
  for (const scale of [1, 2 ** -17]) {
    const starts = new Uint32Array(2 ** 17 + 1);
    for (let i = 0; i < length; i++) starts[((from[i]! * scale) & 0x1ffff) + 1]!++;
    for (let digit = 1; digit < starts.length; digit++) starts[digit]! += starts[digit - 1]!;
    for (let i = 0; i < length; i++) {
      const key = from[i]!;
      to[starts[(key * scale) & 0x1ffff]!++] = key;
    }
    [from, to] = [to, from];
  }
  return from;
}

/** The times of `count` changes, in order: the bursts, then times spread over the log's days. */
function seedTimes(random: Random, start: number, count: number): Float64Array {
  const bursts: number[] = [];
  for (const [days, size] of BURSTS) {
    const at = start - days * DAY + random.int(0, HOUR);
    for (let i = 0; i < size && bursts.length < count; i++) bursts.push(at);
  }
  bursts.sort((a, b) => a - b);
  // The rest as offsets before the start, whole numbers: sorted ascending they are the times descending.
  const offsets = new Float64Array(count - bursts.length);
  for (let i = 0; i < offsets.length; i++) offsets[i] = random.int(1_000, LOG_DAYS * DAY);
  const spread = LOG_DAYS * DAY < 2 ** RADIX_BITS ? radixSort(offsets) : offsets.sort();
  const times = new Float64Array(count);
  let [burst, offset] = [0, spread.length - 1];
  for (let i = 0; i < count; i++) {
    const next = offset >= 0 ? start - spread[offset]! : Infinity;
    if (burst < bursts.length && bursts[burst]! <= next) times[i] = bursts[burst++]!;
    else [times[i], offset] = [next, offset - 1];
  }
  return times;
}

/**
 * The seeded change log, in one pass and as columns: each change creates an item (the first 50,
 * then one in ten), or updates or deletes (3 in 100) a live one. The items go to `content`.
 */
export function seedLog(random: Random, start: number, count: number, content: ContentStore): Columns {
  const times = seedTimes(random, start, count);
  const items = new Uint32Array(count);
  const types = new Uint8Array(count);
  const live: number[] = [];
  const idBytes = new Uint8Array(16);
  for (let i = 0; i < count; i++) {
    if (live.length < 50 || random.chance(0.1)) {
      const item = content.seed(drawContent(random, undefined, idBytes), times[i]!);
      live.push(item);
      items[i] = item;
      types[i] = TYPE_CODES.CREATE;
      continue;
    }
    const at = random.int(0, live.length - 1);
    const item = live[at]!;
    items[i] = item;
    if (random.chance(0.03)) {
      content.seedDeletion(item);
      live[at] = live[live.length - 1]!;
      live.pop();
      types[i] = TYPE_CODES.DELETE;
    } else {
      types[i] = TYPE_CODES.UPDATE;
    }
  }
  content.seal();
  return { times, items, types };
}
