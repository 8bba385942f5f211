import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { formatUuid } from './ids.ts';

const SCRATCH = new Uint8Array(16);

/** A seeded source of randomness: the same seed gives the same data, byte for byte. */
export class Random {
  private readonly rng: ReturnType<typeof xoroshiro128plus>;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }

  /**
   * A stream of its own for each key (a seed and, say, a slot of time): the same key gives the same
   * draws whatever was drawn elsewhere before. The parts are whole numbers, mixed into 32 bits.
   */
  static keyed(...parts: number[]): Random {
    let hash = 0x9e37_79b9;
    for (const part of parts)
      for (const word of [part >>> 0, Math.floor(part / 0x1_0000_0000) >>> 0]) {
        hash = Math.imul(hash ^ word, 0x85eb_ca6b);
        hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2_ae35);
        hash ^= hash >>> 16;
      }
    return new Random(hash);
  }

  /** An integer in [min, max]: pure-rand's uniformInt, draw for draw, its common cases inlined. */
  int(min: number, max: number): number {
    const range = max - min;
    if (range >= 0 && range <= 0xffff_ffff) return this.below(range + 1) + min;
    if (range > 0xffff_ffff && range <= Number.MAX_SAFE_INTEGER) return this.largeInt(min, max);
    return uniformInt(this.rng, min, max);
  }

  chance(probability: number): boolean {
    return this.int(0, 999_999) < probability * 1_000_000;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** A version-4 UUID. */
  uuid(): string {
    this.uuidBytes(SCRATCH, 0);
    return formatUuid(SCRATCH, 0);
  }

  /** The 16 bytes of a version-4 UUID, at `at`: the variant drawn first, then the 30 free digits. */
  uuidBytes(bytes: Uint8Array, at: number): void {
    const variant = 8 + this.int(0, 3);
    for (let i = 0; i < 32; i++) {
      const nibble = i === 12 ? 4 : i === 16 ? variant : this.int(0, 15);
      if (i % 2 === 0) bytes[at + i / 2] = nibble << 4;
      else bytes[at + (i >> 1)]! |= nibble;
    }
  }

  /**
   * pure-rand's uniformInt for a range wider than 32 bits, draw for draw, without its general
   * 64-bit arithmetic: a high part in [0, high], a low 32-bit part, drawn again while above max.
   */
  private largeInt(min: number, max: number): number {
    const range = max - min;
    let high = Math.floor(range / 0x1_0000_0000);
    let low = range >>> 0;
    if (low === 0xffff_ffff) [high, low] = [high + 1, 0];
    else low += 1;
    let top = this.below(high + 1);
    let bottom = this.rng.next() + 0x8000_0000;
    while (top >= high && (top !== high || bottom >= low)) {
      top = this.below(high + 1);
      bottom = this.rng.next() + 0x8000_0000;
    }
    return top * 0x1_0000_0000 + bottom + min;
  }

  /** A number in [0, size), size at most 2^32: a 32-bit draw, drawn again above the last whole multiple. */
  private below(size: number): number {
    const allowed = size > 2 ? Math.floor(0x1_0000_0000 / size) * size : 0x1_0000_0000;
    let value = this.rng.next() + 0x8000_0000;
    while (value >= allowed) value = this.rng.next() + 0x8000_0000;
    return value % size;
  }
}
