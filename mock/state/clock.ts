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

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * Milliseconds since the epoch for an RFC 3339 timestamp, or undefined when it is not one. Every
 * form of the grammar is read (a fraction of any length cut to milliseconds, `t`, `z`, any offset);
 * a space for `T` and a leap second are not (decisions in openapi/README.md: the grammar has no
 * space, and no leap second falls inside the window).
 */
export function parseRfc3339(value: string): number | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59)
    return undefined;
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = m[9] === '-' ? -1 : 1;
  const millis = Number((m[7] ?? '.0').slice(1, 4).padEnd(3, '0'));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  return utc - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}
