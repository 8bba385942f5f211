import type { Contract, Rule } from '../contract/index.ts';
import type { Observations } from '../client/observations.ts';

export type Outcome = 'passed' | 'failed' | 'skipped';

/** One conformance test as the reports see it. */
export interface TestRecord {
  title: string;
  file: string;
  rules: string[];
  outcome: Outcome;
  skipReason?: string;
  observations?: Omit<Observations, 'exchanges'>;
}

export type Verdict = 'pass' | 'fail' | 'skipped' | 'not covered';

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
}

export interface ConformanceReport {
  target: string;
  seed: string | undefined;
  generatedAt: string;
  rows: RuleRow[];
  coverage: Coverage;
  drift: { operation: string; status: number; field: string; count: number }[];
  requests: number;
  retries: { reason: string; url: string }[];
}

/** A rule's verdict: any failure fails it; else any pass passes it; else skipped, or not covered. */
export function verdictOf(tests: { outcome: Outcome }[]): Verdict {
  if (tests.length === 0) return 'not covered';
  if (tests.some((t) => t.outcome === 'failed')) return 'fail';
  if (tests.some((t) => t.outcome === 'passed')) return 'pass';
  return 'skipped';
}

export function buildReport(
  records: TestRecord[],
  rules: Rule[],
  contract: Contract,
  meta: { target: string; seed: string | undefined },
): ConformanceReport {
  const rows = rules.map((rule) => {
    const tests = records.filter((r) => r.rules.includes(rule.id));
    const reasons = [
      ...new Set(tests.filter((t) => t.outcome === 'skipped' && t.skipReason).map((t) => t.skipReason!)),
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

  const drift = new Map<string, { operation: string; status: number; field: string; count: number }>();
  for (const d of records.flatMap((r) => r.observations?.drift ?? [])) {
    const key = `${d.operation} ${d.status} ${d.field}`;
    const entry = drift.get(key) ?? { ...d, count: 0 };
    entry.count++;
    drift.set(key, entry);
  }

  return {
    ...meta,
    generatedAt: new Date().toISOString(),
    rows,
    coverage: {
      documented,
      undocumented,
      ratio: documented.length === 0 ? 0 : documented.filter((d) => d.seen).length / documented.length,
    },
    drift: [...drift.values()].sort(
      (a, b) => a.operation.localeCompare(b.operation) || a.field.localeCompare(b.field),
    ),
    requests: records.reduce((sum, r) => sum + (r.observations?.requests ?? 0), 0),
    retries: records.flatMap((r) => r.observations?.retries ?? []),
  };
}
