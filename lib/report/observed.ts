import type { Contract } from '../contract/index.ts';
import type { Observations } from '../client/observations.ts';
import { exerciseOf, levelsOf, type CoverageLevels } from './levels.ts';

/**
 * What the run's observations add up to, for the report: time per operation, the deprecation
 * signals, the responses covered, the drift, and why tests were not run.
 */

export interface Coverage {
  documented: { operation: string; status: string; seen: boolean }[];
  /** Statuses seen that the contract does not document for the operation. */
  undocumented: { operation: string; status: number }[];
  ratio: number;
  /** The test coverage levels (TCL 0 to 7), per operation and for the run. */
  levels?: CoverageLevels;
  /** By operation, the forms its requests took on the wire (`lib/client/forms-seen.ts`). */
  forms?: Record<string, string[]>;
}

/** Time per operation, in ms, over the run's answered requests. */
export interface Latency {
  operation: string;
  count: number;
  p50: number;
  p95: number;
}

/** What a deprecated operation said of itself across the run: each distinct value, or none. */
export interface DeprecationRow {
  operation: string;
  /** Answers the run saw from it; 0 when the run did not reach it. */
  answers: number;
  deprecation: string[];
  sunset: string[];
  link: string[];
  /** The statuses with which a live service said the operation is gone (404, 410): DEPR-01, not a failure. */
  gone: number[];
}

/** A field the contract does not name, and how often the run saw it. */
export interface DriftRow {
  operation: string;
  status: number;
  field: string;
  note?: string;
  count: number;
}

/** What of a test this file reads. */
interface Observed {
  observations?: Observations;
  skipReason?: string;
}
/** The middle value and the 95th percentile of a list of times (nearest rank). */
function percentiles(values: number[]): { p50: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

export function latencyOf(calls: { operation: string; ms?: number }[]): Latency[] {
  const times = new Map<string, number[]>();
  for (const { operation, ms } of calls)
    if (ms !== undefined) times.set(operation, [...(times.get(operation) ?? []), ms]);
  return [...times]
    .map(([operation, ms]) => ({ operation, count: ms.length, ...percentiles(ms) }))
    .sort((a, b) => a.operation.localeCompare(b.operation));
}

export function deprecationsOf(contract: Contract, records: Observed[]): DeprecationRow[] {
  const observed = records.flatMap((r) => r.observations?.deprecations ?? []);
  const calls = records.flatMap((r) => r.observations?.calls ?? []);
  const gone = records.flatMap((r) => r.observations?.gone ?? []);
  return [...contract.operations.values()]
    .filter((op) => op.deprecated)
    .map((op) => {
      const mine = observed.filter((d) => d.operation === op.id);
      const values = (key: 'deprecation' | 'sunset' | 'link') => [
        ...new Set(mine.map((d) => d[key] ?? 'absent')),
      ];
      return {
        operation: op.id,
        answers: calls.filter((c) => c.operation === op.id).length,
        deprecation: values('deprecation'),
        sunset: values('sunset'),
        link: values('link'),
        gone: [...new Set(gone.filter((g) => g.operation === op.id).map((g) => g.status))].sort(),
      };
    });
}

/**
 * Why tests were not run, beyond the ledger's own reason: merged shards have no ledger, so their
 * tests' reasons are the only place that says why the night stopped.
 */
export function notRunWhy(notRun: Observed[], stopped: string | undefined): string {
  const why = [
    ...new Set(
      notRun.map((r) => r.skipReason?.replace(/^not run: /, '') ?? '').filter((w) => w && w !== stopped),
    ),
  ];
  if (why.length === 0) return '';
  return ` (${why.slice(0, 3).join('; ')}${why.length > 3 ? `; and ${why.length - 3} more` : ''})`;
}

/** Each documented response, seen or not (the images document only when the run called it), and the rest. */
export function coverageOf(contract: Contract, records: Observed[]): Coverage {
  const calls = records.flatMap((r) => r.observations?.calls ?? []);
  const seen = new Set(calls.map((c) => `${c.operation} ${c.status}`));
  const documented = [...contract.operations.values()]
    .filter((op) => op.document === 'main' || calls.some((c) => c.operation === op.id))
    .flatMap((op) =>
      Object.keys(op.responses).map((status) => ({
        operation: op.id,
        status,
        seen: seen.has(`${op.id} ${status}`),
      })),
    );
  const undocumented = [
    ...new Map(
      calls
        .filter((c) => !contract.response(c.operation, c.status))
        .map((c) => [`${c.operation} ${c.status}`, c]),
    ).values(),
  ];
  const exercise = exerciseOf(records.map((r) => r.observations));
  const forms = Object.entries(exercise.exercised).map(([op, e]) => [op, e.forms ?? []] as const);
  return {
    documented,
    undocumented,
    ratio: documented.length === 0 ? 0 : documented.filter((d) => d.seen).length / documented.length,
    levels: levelsOf(contract, exercise),
    forms: Object.fromEntries(forms.filter(([, f]) => f.length > 0).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** Each field the contract does not name, with how often it was seen, by operation and field. */
export function driftOf(records: Observed[]): DriftRow[] {
  const drift = new Map<string, DriftRow>();
  for (const d of records.flatMap((r) => r.observations?.drift ?? [])) {
    const key = `${d.operation} ${d.status} ${d.field} ${d.note ?? ''}`;
    const entry = drift.get(key) ?? { ...d, count: 0 };
    entry.count++;
    drift.set(key, entry);
  }
  return [...drift.values()].sort(
    (a, b) => a.operation.localeCompare(b.operation) || a.field.localeCompare(b.field),
  );
}
