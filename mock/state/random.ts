import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** A seeded source of randomness: the same seed gives the same data, byte for byte. */
export class Random {
  private readonly rng: ReturnType<typeof xoroshiro128plus>;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
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
    const hex = (n: number) => Array.from({ length: n }, () => this.int(0, 15).toString(16)).join('');
    const variant = this.pick(['8', '9', 'a', 'b']);
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
  }
}
