export interface ThrottleOptions {
  /** Requests a key may make per second, sustained. */
  perSecond: number;
  /** Requests a key may make at once before the rate applies. */
  burst: number;
}

/** Generous enough that a suite run never trips it unless it means to. */
export const DEFAULT_THROTTLE: ThrottleOptions = { perSecond: 10_000, burst: 10_000 };

/**
 * A token bucket per key, on real (monotonic) time: the mock's own clock may stand still in tests,
 * and a throttle that never refills would be a bug, not a rule.
 */
export class Throttle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private options: ThrottleOptions = DEFAULT_THROTTLE) {}

  configure(options: ThrottleOptions): void {
    this.options = options;
    this.buckets.clear();
  }

  reset(): void {
    this.configure(DEFAULT_THROTTLE);
  }

  /** Takes one request from the key's bucket: 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    const now = performance.now();
    const { perSecond, burst } = this.options;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return (1 - bucket.tokens) / perSecond;
  }
}
