/** An hour in milliseconds. */
export const HOUR = 3_600_000;
/** A day in milliseconds: the unit of the `since` window and of the seeded feed. */
export const DAY = 86_400_000;

/**
 * The mock's notion of "now", for the `since` window, publishing and token expiry. A clock made
 * with a start time stands still until moved, so tests are reproducible; without one it follows
 * real time (`wall`, `Date.now` unless a test gives its own). Either can be moved forward.
 */
export class Clock {
  private offset = 0;

  constructor(
    private readonly start?: number,
    private readonly wall: () => number = Date.now,
  ) {}

  /** Whether it follows the wall clock, not a fixed start. */
  get real(): boolean {
    return this.start === undefined;
  }

  now(): number {
    return (this.start ?? this.wall()) + this.offset;
  }

  advance(ms: number): void {
    // Back in time, the log's changes would come out of order.
    if (!(ms >= 0)) throw new Error(`The clock only moves forward: cannot advance by ${ms} ms`);
    this.offset += ms;
  }

  reset(): void {
    this.offset = 0;
  }
}

export function toTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
