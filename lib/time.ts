/** An hour in milliseconds. */
export const HOUR = 3_600_000;
/** A day in milliseconds. */
export const DAY = 86_400_000;

/** An instant as RFC 3339 text in UTC, with milliseconds (what the contract's `date-time` carries). */
export const iso = (ms: number) => new Date(ms).toISOString();
