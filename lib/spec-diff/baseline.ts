import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Change } from './differ.ts';

/** A change a team accepted: its rule, where, why, and until when the acceptance holds. */
export interface Accepted {
  rule: string;
  pointer: string;
  reason: string;
  /** An ISO date; after it the change fails the gate again. */
  expires: string;
  /** The operation, when one pointer is shared by several (a component used by many). */
  operation?: string;
}

export interface Judged extends Change {
  /** Accepted by a baseline entry that still holds: it never fails the gate. */
  accepted?: { reason: string; expires: string };
  /** Accepted once, by an entry that has expired. */
  expired?: { reason: string; expires: string };
}

/**
 * Reads a baseline file (YAML or JSON): a list of accepted changes, or `{ accepted: [...] }`.
 * An entry without a rule, a pointer, a reason or a valid expiry date is refused: an acceptance
 * must say why and for how long.
 */
export function readBaseline(path: string): Accepted[] {
  let doc: unknown;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`baseline ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { accepted?: unknown } | null)?.accepted;
  if (!Array.isArray(list)) throw new Error(`baseline ${path}: expected a list of accepted changes`);
  return list.map((entry: unknown, i) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const missing = ['rule', 'pointer', 'reason', 'expires'].filter(
      (k) => typeof e[k] !== 'string' && !(k === 'expires' && e[k] instanceof Date),
    );
    if (missing.length) throw new Error(`baseline ${path}: entry ${i + 1} has no ${missing.join(', ')}`);
    const expires = e.expires instanceof Date ? e.expires.toISOString().slice(0, 10) : String(e.expires);
    if (!Number.isFinite(Date.parse(expires)))
      throw new Error(`baseline ${path}: entry ${i + 1} expires "${expires}", not a date (YYYY-MM-DD)`);
    return {
      rule: String(e.rule),
      pointer: String(e.pointer),
      reason: String(e.reason),
      expires,
      ...(typeof e.operation === 'string' ? { operation: e.operation } : {}),
    };
  });
}

/** Each change with the baseline entry that accepts it, if any; `today` is an ISO date. */
export function judge(changes: Change[], baseline: Accepted[], today: string): Judged[] {
  return changes.map((change) => {
    const entry = baseline.find(
      (a) =>
        a.rule === change.id &&
        a.pointer === change.pointer &&
        (a.operation === undefined || a.operation === change.operation),
    );
    if (!entry) return change;
    const verdict = { reason: entry.reason, expires: entry.expires };
    return entry.expires >= today ? { ...change, accepted: verdict } : { ...change, expired: verdict };
  });
}
