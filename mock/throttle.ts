import { DAY } from './state/clock.ts';
export interface ThrottleOptions {
  /** Requests a key may make per second, sustained. */
  perSecond: number;
  /** Requests a key may make at once before the rate applies. */
  burst: number;
  /** Requests a key may make in a day (24 hours from its first request); no daily limit when absent. */
  perDay?: number;
}

/** The real service's allowance for a basic key: 2 requests a second and 5,000 a day. */
export const REAL_THROTTLE: ThrottleOptions = { perSecond: 2, burst: 2, perDay: 5_000 };

/** "2/s, 5000/day per key", or "off": for banners and logs. */
export function describeThrottle(options: ThrottleOptions | undefined): string {
  if (!options) return 'off';
  const day = options.perDay === undefined ? '' : `, ${options.perDay}/day`;
  return `${options.perSecond}/s${day} per key`;
}

/**
 * A token bucket and a daily count per key, on real (monotonic) time: the mock's own clock may
 * stand still in tests, and a throttle that never refills would be a bug, not a rule. Off unless
 * configured: a mock that throttles unasked surprises its users.
 */
export class Throttle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly days = new Map<string, { count: number; since: number }>();
  private current: ThrottleOptions | undefined;

  /** `initial` is what `reset()` returns to: undefined for no throttle at all. */
  constructor(private readonly initial?: ThrottleOptions) {
    this.current = initial;
  }

  get options(): ThrottleOptions | undefined {
    return this.current;
  }

  /** Throttles with these options from now on (undefined switches it off), every key afresh. */
  configure(options: ThrottleOptions | undefined): void {
    this.current = options;
    this.buckets.clear();
    this.days.clear();
  }

  reset(): void {
    this.configure(this.initial);
  }

  /** Takes one request from the key's allowance: 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    if (!this.current) return 0;
    const now = performance.now();
    const { perSecond, burst, perDay } = this.current;
    let day = this.days.get(key);
    if (perDay !== undefined) {
      if (!day || now - day.since >= DAY) this.days.set(key, (day = { count: 0, since: now }));
      if (day.count >= perDay) return (day.since + DAY - now) / 1000;
    }
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return (1 - bucket.tokens) / perSecond;
    bucket.tokens -= 1;
    if (day) day.count++;
    return 0;
  }
}
