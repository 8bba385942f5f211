import type { Contract, Rule } from '../contract/index.ts';
import type { Observations } from '../client/observations.ts';
import type { ExploreRow } from '../explore/summary.ts';
import { findingsOf, type FailureRecord, type Finding } from './findings.ts';
import { exerciseOf, levelsOf, type CoverageLevels } from './levels.ts';

export type { ExchangeRecord, FailureRecord, Finding } from './findings.ts';

/** `not run`: the run stopped (budget, deadline, an unreachable service) before the test could decide. */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'not run';

/** One conformance test as the reports see it. */
export interface TestRecord {
  /** Playwright's id of the test, for links into its HTML report. */
  id: string;
  title: string;
  file: string;
  rules: string[];
  outcome: Outcome;
  skipReason?: string;
  observations?: Observations;
  failure?: FailureRecord;
}

export type Verdict = 'pass' | 'fail' | 'not run' | 'skipped' | 'not covered';

/** The run's verdict: any failed rule fails it; else anything not run leaves it incomplete. */
export type RunVerdict = 'pass' | 'fail' | 'incomplete';

/** What the run's ledger counted: requests as the service would count them, and why it stopped. */
export interface RunRecord {
  requests: number;
  budget: number | null;
  perSecond: number | null;
  stopped?: string;
  transportFailures: string[];
}

export interface RuleRow {
  rule: Rule;
  verdict: Verdict;
  tests: { title: string; outcome: Outcome }[];
  reasons: string[];
}

export interface Coverage {
  documented: { operation: string; status: string; seen: boolean }[];
  /** Statuses seen that the contract does not document for the operation. */
  undocumented: { operation: string; status: number }[];
  ratio: number;
  /** The test coverage levels (TCL 0 to 7), per operation and for the run. */
  levels?: CoverageLevels;
}

/** What a run was: enough to tell two reports apart and to replay one. Never a secret. */
export interface RunMeta {
  targetKind: 'mock' | 'live';
  /** The base URL tested (for the mock: the standalone mock's address a replay uses). */
  baseUrl: string;
  /** The suite's git commit, when it runs from a checkout. */
  suiteCommit: string | null;
  /** The contract's `info.version` and a hash of its bundled text. */
  contract: { version: string; hash: string };
  /** The mock's faults switched on (MOCK_FAULTS). */
  faults: string[];
  seed: string | undefined;
  startedAt: string;
  endedAt: string;
  /** Why the run is not the whole suite (a filter, a shard, files named); empty for a full run. */
  partial: string[];
  /** For the mock: the command that starts the standalone mock as the run's own were (seed, clock, faults). */
  replayMock?: string;
  /** Tests the run reached, of those its projects hold. */
  tests: { run: number; total: number };
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

export interface ConformanceReport {
  verdict: RunVerdict;
  /** Cases the exploration derived from the contract, per operation: run and not run. */
  exploration: ExploreRow[];
  /** Deprecation signals per deprecated operation: reported, never failed. */
  deprecations: DeprecationRow[];
  meta: RunMeta;
  findings: Finding[];
  latency: Latency[];
  /** Why the run is incomplete (empty when it is not). */
  incomplete: string[];
  run: RunRecord;
  target: string;
  seed: string | undefined;
  generatedAt: string;
  rows: RuleRow[];
  coverage: Coverage;
  drift: { operation: string; status: number; field: string; note?: string; count: number }[];
  requests: number;
  retries: { reason: string; url: string }[];
}

/**
 * Why a run left rules undecided beyond being a part of the suite by choice (a filter, a shard,
 * files named): the run stopped, was interrupted, or tests were not run. Empty for a partial run
 * that ran all it selected. The partial run's own reason comes first in `incomplete`.
 */
export function unfinished(report: Pick<ConformanceReport, 'incomplete' | 'meta'>): string[] {
  return report.meta.partial.length > 0 ? report.incomplete.slice(1) : report.incomplete;
}

/**
 * A rule's verdict: any failure fails it; else a test not run leaves it undecided; else any pass
 * passes it; else skipped, or not covered.
 */
export function verdictOf(tests: { outcome: Outcome }[]): Verdict {
  if (tests.length === 0) return 'not covered';
  if (tests.some((t) => t.outcome === 'failed')) return 'fail';
  if (tests.some((t) => t.outcome === 'not run')) return 'not run';
  if (tests.some((t) => t.outcome === 'passed')) return 'pass';
  return 'skipped';
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

function deprecationsOf(contract: Contract, records: TestRecord[]): DeprecationRow[] {
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
function notRunWhy(notRun: TestRecord[], stopped: string | undefined): string {
  const why = [
    ...new Set(
      notRun.map((r) => r.skipReason?.replace(/^not run: /, '') ?? '').filter((w) => w && w !== stopped),
    ),
  ];
  if (why.length === 0) return '';
  return ` (${why.slice(0, 3).join('; ')}${why.length > 3 ? `; and ${why.length - 3} more` : ''})`;
}

export function buildReport(
  records: TestRecord[],
  rules: Rule[],
  contract: Contract,
  meta: {
    target: string;
    seed: string | undefined;
    run?: RunRecord;
    interrupted?: string;
    meta: RunMeta;
    exploration?: ExploreRow[];
  },
): ConformanceReport {
  // A failed automatic check counts for its own rule too, not only for the rules the test names.
  const rulesOf = (r: TestRecord) => [
    ...r.rules,
    ...(r.outcome === 'failed' ? (r.observations?.findings ?? []).flatMap((f) => f.rules) : []),
  ];
  const rows = rules.map((rule) => {
    const tests = records.filter((r) => rulesOf(r).includes(rule.id));
    const reasons = [
      ...new Set(tests.filter((t) => t.outcome !== 'passed' && t.skipReason).map((t) => t.skipReason!)),
    ];
    return {
      rule,
      verdict: verdictOf(tests),
      tests: tests.map(({ title, outcome }) => ({ title, outcome })),
      reasons,
    };
  });

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

  const drift = new Map<string, ConformanceReport['drift'][number]>();
  for (const d of records.flatMap((r) => r.observations?.drift ?? [])) {
    const key = `${d.operation} ${d.status} ${d.field}`;
    const entry = drift.get(key) ?? { ...d, count: 0 };
    entry.count++;
    drift.set(key, entry);
  }

  const requests = records.reduce((sum, r) => sum + (r.observations?.requests ?? 0), 0);
  const run = meta.run ?? { requests, budget: null, perSecond: null, transportFailures: [] };
  const notRun = records.filter((r) => r.outcome === 'not run');
  const incomplete = [
    ...(meta.interrupted ? [meta.interrupted] : []),
    ...(run.stopped ? [run.stopped] : []),
    ...(notRun.length > 0 ? [`${notRun.length} test(s) not run${notRunWhy(notRun, run.stopped)}`] : []),
  ];
  // First, where `unfinished` expects it.
  if (meta.meta.partial.length > 0) incomplete.unshift(`a partial run (${meta.meta.partial.join('; ')})`);
  return {
    verdict: rows.some((r) => r.verdict === 'fail') ? 'fail' : incomplete.length > 0 ? 'incomplete' : 'pass',
    meta: meta.meta,
    exploration: meta.exploration ?? [],
    deprecations: deprecationsOf(contract, records),
    findings: findingsOf(records),
    latency: latencyOf(calls),
    incomplete,
    run,
    target: meta.target,
    seed: meta.seed,
    generatedAt: new Date().toISOString(),
    rows,
    coverage: {
      documented,
      undocumented,
      ratio: documented.length === 0 ? 0 : documented.filter((d) => d.seen).length / documented.length,
      levels: levelsOf(contract, exerciseOf(records.map((r) => r.observations))),
    },
    drift: [...drift.values()].sort(
      (a, b) => a.operation.localeCompare(b.operation) || a.field.localeCompare(b.field),
    ),
    requests: run.requests,
    retries: records.flatMap((r) => r.observations?.retries ?? []),
  };
}
