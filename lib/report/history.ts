import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { FeedNight } from '../paging/nights.ts';
import type { ConformanceReport, Latency, RunVerdict, Verdict } from './model.ts';
import type { TargetKind } from '../config.ts';

/** The history's file name; it lives in the reports folder, `<reportsDir>/history.jsonl`. */
export const HISTORY_FILE = 'history.jsonl';

/** One run as the history keeps it: enough to compare runs and chart them, one JSON line each. */
export interface HistoryRecord {
  /** When the run ended (its meta's endedAt). */
  at: string;
  commit: string | null;
  targetKind: TargetKind;
  baseUrl: string;
  /** The target in one line, as a person reads it (`the bundled mock, one per worker (14)`). */
  target?: string;
  /** The hash of the contract the run checked against. */
  contract: string;
  faults: string[];
  verdict: RunVerdict;
  rules: Record<string, Verdict>;
  /** For each blocked rule, the rules whose failures blocked it. */
  blockedBy?: Record<string, string[]>;
  findings: { id: string; title: string; rules: string[] }[];
  /** Fields the contract does not name, as `operation status field`. */
  drift: string[];
  latency: Latency[];
  requests: number;
  /** Every test ran to a decision: no filter, no shard, nothing left not run. */
  complete: boolean;
  /**
   * Where the night's feed walk stopped, for the next night to follow, and what the check across
   * nights found.
   */
  feed?: FeedNight;
  /**
   * A part of the suite, kept only for its feed walk: the next night follows its link, but the
   * regression gate and the rule grid leave it out.
   */
  partial?: boolean;
}

export function recordOf(report: ConformanceReport, feed?: FeedNight): HistoryRecord {
  const { meta } = report;
  return {
    at: meta.endedAt,
    commit: meta.suiteCommit,
    targetKind: meta.targetKind,
    baseUrl: meta.baseUrl,
    target: meta.target,
    contract: meta.contract.hash,
    faults: [...meta.faults].sort(),
    verdict: report.verdict,
    rules: Object.fromEntries(report.rows.map((row) => [row.rule.id, row.verdict])),
    ...blockersOf(report),
    findings: report.findings.map(({ id, title, rules }) => ({ id, title, rules })),
    drift: report.drift.map((d) => `${d.operation} ${d.status} ${d.field}`),
    latency: report.latency.map(({ operation, count, p50, p95 }) => ({ operation, count, p50, p95 })),
    requests: report.requests,
    complete: meta.partial.length === 0 && report.incomplete.length === 0,
    ...(feed ? { feed } : {}),
    ...(meta.partial.length > 0 ? { partial: true } : {}),
  };
}

/** The blocked rules and their blockers, when any (a report written before attribution has none). */
function blockersOf(report: ConformanceReport): Pick<HistoryRecord, 'blockedBy'> {
  const rows = report.rows.filter((r) => (r.blockedBy as string[] | undefined)?.length);
  return rows.length ? { blockedBy: Object.fromEntries(rows.map((r) => [r.rule.id, r.blockedBy])) } : {};
}

/** Adds one line; earlier lines are never rewritten, and a torn last line stays on its own. */
export function appendHistory(file: string, record: HistoryRecord): void {
  mkdirSync(dirname(file), { recursive: true });
  const line = `${JSON.stringify(record)}\n`;
  appendFileSync(file, endsWithNewline(file) ? line : `\n${line}`);
}

function endsWithNewline(file: string): boolean {
  if (!existsSync(file)) return true;
  const size = statSync(file).size;
  if (size === 0) return true;
  const fd = openSync(file, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** The runs in time order; `malformed` counts the lines skipped as unreadable. */
export type History = HistoryRecord[] & { malformed: number };

export function readHistory(file: string): History {
  const records: HistoryRecord[] = [];
  let malformed = 0;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const record = parseRecord(line);
    if (record) records.push(record);
    else malformed++;
  }
  // A stable sort: runs that ended at the same moment keep the order they were written in.
  records.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return Object.assign(records, { malformed });
}

function parseRecord(line: string): HistoryRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const r = value as Partial<HistoryRecord>;
  const ok =
    typeof r.at === 'string' &&
    !Number.isNaN(Date.parse(r.at)) &&
    (r.targetKind === 'mock' || r.targetKind === 'live') &&
    typeof r.baseUrl === 'string' &&
    typeof r.verdict === 'string' &&
    typeof r.rules === 'object' &&
    r.rules !== null;
  if (!ok) return undefined;
  // Lines written by an older suite may lack the later fields: they read as empty.
  return {
    commit: null,
    contract: '',
    faults: [],
    findings: [],
    drift: [],
    latency: [],
    requests: 0,
    complete: true,
    ...r,
  } as HistoryRecord;
}

/**
 * Runs are compared only with runs of the same target: kind, base URL and the mock's faults. The
 * bundled mock is one target whatever free port each run's mocks listened on.
 */
export const targetOf = (r: HistoryRecord) =>
  `${r.targetKind} ${r.targetKind === 'mock' ? '' : r.baseUrl} ${[...r.faults].sort().join(',')}`;

export interface RuleTrend {
  rule: string;
  /** Its verdicts over the runs looked at, oldest first, the newest last; `absent` where a run lacked it. */
  verdicts: (Verdict | 'absent')[];
  /** Titles of the newest run's findings that name the rule. */
  findings: string[];
}

export interface Regressions {
  newest: HistoryRecord | undefined;
  /** The earlier runs of the newest's target the rules are compared with, oldest first. */
  compared: HistoryRecord[];
  window: number;
  /** Passed in each compared run, fails in the newest: fails the gate. */
  regressed: RuleTrend[];
  /**
   * Passed in each compared run, undecided in the newest (not run, skipped, not covered): what held
   * is no longer known to hold. Fails the gate with its own exit code.
   */
  notRun: RuleTrend[];
  /**
   * Passed in each compared run, blocked in the newest by rules that failed in it: undecided, like
   * not run, but its blocker's failure already fails the gate, so it is listed and never counted.
   */
  blocked: RuleTrend[];
  /** Flipped between pass and fail at least twice over the compared runs and the newest. */
  flaky: RuleTrend[];
  /** Failed in the run before, passes in the newest (and is not flaky). */
  fixed: RuleTrend[];
}

export const DEFAULT_WINDOW = 3;

/** The gate: compares the newest run with up to `window` runs before it, of the same target. */
export function regressions(history: HistoryRecord[], options: { window?: number } = {}): Regressions {
  const window = Math.max(1, Math.floor(options.window ?? DEFAULT_WINDOW));
  const whole = history.filter((r) => !r.partial);
  const newest = whole.at(-1);
  const none: Regressions = {
    newest,
    compared: [],
    window,
    regressed: [],
    notRun: [],
    blocked: [],
    flaky: [],
    fixed: [],
  };
  if (!newest) return none;
  const same = whole.filter((r) => targetOf(r) === targetOf(newest));
  const compared = same.slice(-1 - window, -1);
  if (compared.length === 0) return none;
  const result: Regressions = { ...none, compared };
  for (const rule of Object.keys(newest.rules).sort()) {
    const verdicts = [...compared, newest].map((r) => r.rules[rule] ?? 'absent');
    const now = verdicts.at(-1);
    const before = verdicts.slice(0, -1);
    const trend: RuleTrend = {
      rule,
      verdicts,
      findings: newest.findings.filter((f) => f.rules.includes(rule)).map((f) => f.title),
    };
    const decided = verdicts.filter((v) => v === 'pass' || v === 'fail');
    const flips = decided.filter((v, i) => i > 0 && v !== decided[i - 1]).length;
    const held = before.every((v) => v === 'pass');
    const blockers = newest.blockedBy?.[rule] ?? [];
    if (now === 'fail' && held) result.regressed.push(trend);
    else if (now === 'blocked' && held && blockers.some((b) => newest.rules[b] === 'fail'))
      result.blocked.push(trend);
    else if (now !== 'pass' && now !== 'fail' && held) result.notRun.push(trend);
    else if (flips >= 2) result.flaky.push(trend);
    else if (now === 'pass' && before.at(-1) === 'fail') result.fixed.push(trend);
  }
  return result;
}
