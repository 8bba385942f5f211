/** The mutation run's report: one model, written as Markdown and JSON. */

export interface MutantResult {
  fault: string;
  rule: string;
  kind: string;
  description: string;
  killed: boolean;
  killedBy: string[];
  /** Whether the suite in live mode kills it too; absent when a live run cannot see the fault. */
  live?: { killed: boolean; killedBy: string[] };
  /** For a fault of a rule checked live that a live run cannot see: why. */
  notLive?: string;
  /** With --deep, for a fault only property-based tests kill: how many of the seeds killed it. */
  propertyKillRate?: { killed: number; seeds: number };
}

export interface MutationReport {
  seed: string;
  /** The clean copies of mock mode's first run: how many, and their tests' time added up. */
  baseline: { tests: number; seconds: number };
  /** Each phase: what it ran and how long it took. */
  phases: { name: string; faults: number; seconds: number }[];
  seconds: number;
  results: MutantResult[];
}

const groupOf = (rule: string) => rule.split('-')[0]!;
const pct = (k: number, n: number) => (n === 0 ? '-' : `${((k / n) * 100).toFixed(0)}%`);
const cell = (s: string) => s.replaceAll('|', '\\|');

export function scores(report: MutationReport) {
  const { results } = report;
  const live = results.filter((r) => r.live);
  return {
    mock: { killed: results.filter((r) => r.killed).length, total: results.length },
    live: { killed: live.filter((r) => r.live!.killed).length, total: live.length },
    survivors: results.filter((r) => !r.killed),
    liveSurvivors: live.filter((r) => !r.live!.killed),
  };
}

export function mutationMarkdown(report: MutationReport): string {
  const s = scores(report);
  const groups = [...new Set(report.results.map((r) => groupOf(r.rule)))];
  const rated = report.results.filter((r) => r.propertyKillRate);
  const killRates = rated
    .map((r) => `${r.fault} ${r.propertyKillRate!.killed}/${r.propertyKillRate!.seeds}`)
    .join(', ');
  const lines = [
    '# Mutation run',
    '',
    `Baseline: the clean mock, ${report.baseline.tests} tests, all passed ` +
      `(${report.baseline.seconds.toFixed(1)} s of tests, in the first run of mock mode). ` +
      `fast-check seed ${report.seed}.`,
    '',
    `Mock mode: **${s.mock.killed}/${s.mock.total} faults killed (${pct(s.mock.killed, s.mock.total)})**.`,
    '',
    `Live mode: **${s.live.killed}/${s.live.total} faults a live run can see killed** ` +
      'by the suite reaching a mock with the fault as a live service ' +
      '(paced, bounded, no control of its data or clock).',
    ...report.results
      .filter((r) => r.notLive)
      .map((r) => `- not visible live: ${r.fault} (${r.rule}): ${r.notLive}`),
    '',
    `The whole run took ${report.seconds.toFixed(0)} s: ` +
      `${report.phases.map((p) => `${p.name} ${p.seconds.toFixed(1)} s (${p.faults} faults)`).join('; ')}.`,
    '',
    '| Group | Mock | Live |',
    '|---|---|---|',
    ...groups.map((g) => {
      const mine = report.results.filter((r) => groupOf(r.rule) === g);
      const live = mine.filter((r) => r.live);
      const k = mine.filter((r) => r.killed).length;
      const lk = live.filter((r) => r.live!.killed).length;
      return `| ${g} | ${k}/${mine.length} | ${live.length ? `${lk}/${live.length}` : '-'} |`;
    }),
    '',
    rated.length
      ? `Kill rates of faults only property-based tests kill: ${killRates}.`
      : 'Kill rates over seeds: measured by `npm run mutation:deep`.',
    '',
    '| Fault | Rule | Kind | What it breaks | Mock | Live | Killed by |',
    '|---|---|---|---|---|---|---|',
    ...report.results.map(
      (r) =>
        `| ${r.fault} | ${r.rule} | ${r.kind} | ${cell(r.description)} | ` +
        `${r.killed ? 'killed' : '**survived**'} | ` +
        `${r.live ? (r.live.killed ? 'killed' : '**survived**') : 'not visible'} | ` +
        `${cell([...new Set([...r.killedBy, ...(r.live?.killedBy ?? [])])].slice(0, 3).join('<br>'))} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
