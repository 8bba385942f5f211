import type { Contract, Rule } from '../contract/index.ts';
import type { Observations, Outage } from '../client/observations.ts';
import type { ExploreRow } from '../explore/summary.ts';
import type { ProductionRow } from '../explore/productions.ts';
import { ruleOutcomes, type Attribution } from './attribution.ts';
import { findingsOf, type FailureRecord, type Finding } from './findings.ts';
import {
  coverageOf,
  deprecationsOf,
  driftOf,
  latencyOf,
  notRunWhy,
  type Coverage,
  type DeprecationRow,
  type DriftRow,
  type Latency,
} from './observed.ts';
import type { TargetKind } from '../config.ts';

export type { ExchangeRecord, FailureRecord, Finding } from './findings.ts';
export type { Coverage, DeprecationRow, DriftRow, Latency } from './observed.ts';

/** `not run`: the run stopped (budget, deadline, an unreachable service) before the test could decide. */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'not run';

/** A test's outcome from Playwright's status and the reason it was skipped with, if it was. */
export function outcomeOf(status: string, skip: string | undefined): Outcome {
  if (status === 'passed') return 'passed';
  if (status !== 'skipped') return 'failed';
  return skip?.startsWith('not run:') ? 'not run' : 'skipped';
}

/**
 * A live test an outage stopped before its last attempt is failed as "not run yet" and runs again
 * at the end of the run (Playwright queues retries last), annotated `OUTAGE_ANNOTATION`; any other
 * test's retry is no run of it, annotated `FIRST_ATTEMPT_STANDS`, and its first attempt stands.
 */
export const OUTAGE_ANNOTATION = 'outage';
export const FIRST_ATTEMPT_STANDS = 'first attempt stands';

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
  /** A failed test: the rules its failure is attributed to, and those of its own it left undecided. */
  attribution?: Attribution;
}

/**
 * `blocked`: every test of the rule that ran was stopped by another rule's failure (the rule is not
 * decided, neither passed nor failed).
 */
export type Verdict = 'pass' | 'fail' | 'blocked' | 'not run' | 'skipped' | 'not covered';

/** What one test decided of one rule: a blocked test decides nothing of its own rules. */
export type RuleOutcome = Outcome | 'blocked';

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
  tests: { title: string; outcome: RuleOutcome }[];
  reasons: string[];
  /** The rules whose failures blocked its tests. */
  blockedBy: string[];
}

/** What a run was: enough to tell two reports apart and to replay one. Never a secret. */
export interface RunMeta {
  targetKind: TargetKind;
  /** The base URLs tested (for the mock: each worker's own, one per worker). */
  baseUrl: string;
  /** The target in one line: `the bundled mock, one per worker (14)`, or the live base URL. */
  target: string;
  /** The suite's package version. */
  suiteVersion: string;
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
  /**
   * For the mock: the command that starts the standalone mock as the run's own were (seed, clock,
   * faults).
   */
  replayMock?: string;
  /** Tests the run reached, of those its projects hold. */
  tests: { run: number; total: number };
}

/** The run at a glance: the header of every report, and the first fields of the JSON's `run`. */
export interface RunHeader {
  target: string;
  faults: string[];
  seed: string | null;
  suite: { version: string; commit: string | null };
  contract: { version: string; hash: string };
}

export function runHeader(meta: RunMeta): RunHeader {
  return {
    target: meta.target,
    faults: meta.faults,
    seed: meta.seed ?? null,
    suite: { version: meta.suiteVersion, commit: meta.suiteCommit },
    contract: meta.contract,
  };
}

export interface ConformanceReport {
  verdict: RunVerdict;
  /** Cases the exploration derived from the contract, per operation: run and not run. */
  exploration: ExploreRow[];
  /** Requests the exploration's tests sent (cases, properties, page tokens): its share of the run. */
  explorationRequests?: number;
  /** Every production of the grammars a request is drawn from: the operations that drew it, or why none did. */
  productions?: ProductionRow[];
  /** Deprecation signals per deprecated operation: reported, never failed. */
  deprecations: DeprecationRow[];
  meta: RunMeta;
  findings: Finding[];
  latency: Latency[];
  /** Why the run is incomplete (empty when it is not). */
  incomplete: string[];
  run: RunHeader & RunRecord;
  target: string;
  seed: string | undefined;
  generatedAt: string;
  rows: RuleRow[];
  coverage: Coverage;
  drift: DriftRow[];
  requests: number;
  retries: { reason: string; url: string }[];
  /** Outages of the service that requests met: waited out, or not run past the wait. */
  outages: Outage[];
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
 * A rule's verdict: any failure fails it; else a test blocked by another rule, or not run, leaves it
 * undecided; else any pass passes it; else skipped, or not covered.
 */
export function verdictOf(tests: { outcome: RuleOutcome }[]): Verdict {
  if (tests.length === 0) return 'not covered';
  if (tests.some((t) => t.outcome === 'failed')) return 'fail';
  if (tests.some((t) => t.outcome === 'blocked')) return 'blocked';
  if (tests.some((t) => t.outcome === 'not run')) return 'not run';
  if (tests.some((t) => t.outcome === 'passed')) return 'pass';
  return 'skipped';
}

/** What the report is built from besides the tests: the run, its metadata and its exploration. */
export interface ReportInput {
  target: string;
  seed: string | undefined;
  run?: RunRecord;
  interrupted?: string;
  meta: RunMeta;
  exploration?: ExploreRow[];
  explorationRequests?: number;
  productions?: ProductionRow[];
}

/** Each rule with the tests that decided it, its verdict, and why tests of it were not run or skipped. */
function rowsOf(records: TestRecord[], rules: Rule[]): RuleRow[] {
  // A failure counts for the rule it is attributed to, whether or not the test names it.
  const decided = records.map((r) => ({ record: r, of: ruleOutcomes(r.rules, r.outcome, r.attribution) }));
  return rules.map((rule) => {
    const mine = decided.filter((d) => rule.id in d.of);
    const tests = mine.map(({ record, of }) => ({
      title: record.title,
      outcome: of[rule.id] as RuleOutcome,
    }));
    const reasons = [
      ...new Set(
        mine
          .filter((d) => d.record.outcome !== 'passed' && d.record.skipReason)
          .map((d) => d.record.skipReason!),
      ),
    ];
    const blockedBy = mine
      .filter((d) => d.of[rule.id] === 'blocked')
      .flatMap((d) => d.record.attribution?.blockedBy ?? []);
    return { rule, verdict: verdictOf(tests), tests, reasons, blockedBy: [...new Set(blockedBy)].sort() };
  });
}

/** Why the run is incomplete: a partial run first (where `unfinished` expects it), then why it stopped. */
function incompleteOf(records: TestRecord[], run: RunRecord, input: ReportInput): string[] {
  const notRun = records.filter((r) => r.outcome === 'not run');
  return [
    ...(input.meta.partial.length > 0 ? [`a partial run (${input.meta.partial.join('; ')})`] : []),
    ...(input.interrupted ? [input.interrupted] : []),
    ...(run.stopped ? [run.stopped] : []),
    ...(notRun.length > 0 ? [`${notRun.length} test(s) not run${notRunWhy(notRun, run.stopped)}`] : []),
  ];
}

export function buildReport(
  records: TestRecord[],
  rules: Rule[],
  contract: Contract,
  input: ReportInput,
): ConformanceReport {
  const rows = rowsOf(records, rules);
  const calls = records.flatMap((r) => r.observations?.calls ?? []);
  const requests = records.reduce((sum, r) => sum + (r.observations?.requests ?? 0), 0);
  const run = input.run ?? { requests, budget: null, perSecond: null, transportFailures: [] };
  const incomplete = incompleteOf(records, run, input);
  return {
    // A blocked rule stands for a failure, even of a rule the catalogue may lack.
    verdict: rows.some((r) => r.verdict === 'fail' || r.verdict === 'blocked')
      ? 'fail'
      : incomplete.length > 0
        ? 'incomplete'
        : 'pass',
    meta: input.meta,
    exploration: input.exploration ?? [],
    ...(input.explorationRequests === undefined ? {} : { explorationRequests: input.explorationRequests }),
    ...(input.productions ? { productions: input.productions } : {}),
    deprecations: deprecationsOf(contract, records),
    findings: findingsOf(records),
    latency: latencyOf(calls),
    incomplete,
    run: { ...runHeader(input.meta), ...run },
    target: input.target,
    seed: input.seed,
    generatedAt: new Date().toISOString(),
    rows,
    coverage: coverageOf(contract, records),
    drift: driftOf(records),
    requests: run.requests,
    retries: records.flatMap((r) => r.observations?.retries ?? []),
    outages: records.flatMap((r) => r.observations?.outages ?? []),
  };
}
