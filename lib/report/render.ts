import { productionLines } from './render-productions.ts';
import type { ConformanceReport, Finding, RuleRow, RunHeader, Verdict } from './model.ts';
import { levelLine } from './render-coverage.ts';

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
const tableRow = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

const MARKS: Record<string, string> = { passed: '✓', failed: '✗', blocked: '⊘', 'not run': '…' };
export const mark = (outcome: string) => MARKS[outcome] ?? '–';

/** A rule's verdict as a reader reads it: a blocked rule says which rule blocked it. */
export const verdictText = (row: RuleRow) =>
  row.verdict === 'blocked' ? `not decided (blocked by ${row.blockedBy.join(', ')})` : row.verdict;

export function counts(report: ConformanceReport): Record<Verdict, number> {
  const result: Record<Verdict, number> = {
    pass: 0,
    fail: 0,
    blocked: 0,
    'not run': 0,
    skipped: 0,
    'not covered': 0,
  };
  for (const row of report.rows) result[row.verdict]++;
  return result;
}

/** The suite's version and its commit, as every page names them. */
export const suiteText = (suite: RunHeader['suite']) =>
  `${suite.version} (${suite.commit ? `commit ${suite.commit.slice(0, 12)}` : 'not a git checkout'})`;

/** The run at a glance, one line each: target, faults, seed, suite and contract; then when and how much. */
export function runLines(report: ConformanceReport): string[] {
  const { meta, run } = report;
  const budget = run.budget !== null ? ` of a budget of ${run.budget}` : '';
  const pace = run.perSecond !== null ? `, at most ${run.perSecond} per second` : '';
  const whole = meta.partial.length ? `PARTIAL (${meta.partial.join('; ')})` : 'the whole suite';
  const reasons = [...new Set(report.retries.map((r) => r.reason))].slice(0, 5);
  return [
    `Target: ${run.target}`,
    `Faults: ${run.faults.length ? run.faults.join(', ') : 'none'}`,
    `Seed: ${run.seed ?? 'none'} (fast-check)`,
    `Suite: ${suiteText(run.suite)}`,
    `Contract: ${run.contract.version} (hash ${run.contract.hash})`,
    `Time: ${meta.startedAt} to ${meta.endedAt}`,
    `Requests: ${report.requests}${budget}${pace}`,
    `Tests: ${meta.tests.run} run of ${meta.tests.total}; ${whole}`,
    ...(report.coverage.levels ? [levelLine(report.coverage.levels)] : []),
    ...(run.transportFailures.length > 0
      ? [`No answer: ${run.transportFailures.length} time(s) (${run.transportFailures.slice(-3).join('; ')})`]
      : []),
    ...(report.retries.length > 0 ? [`Retried: ${report.retries.length} (${reasons.join('; ')})`] : []),
    ...(report.outages.length > 0 ? [outageLine(report.outages)] : []),
  ];
}

/** The service's outages as one line: how many requests waited one out, and when it was out. */
function outageLine(outages: ConformanceReport['outages']): string {
  const out = outages.filter((o) => !o.waitedOut).length;
  const spans = [...new Set(outages.map((o) => `${o.status} from ${o.began} to ${o.ended}`))].slice(0, 3);
  return (
    `Outages: ${outages.length - out} request(s) waited one out` +
    (out > 0 ? `, ${out} not run past CLM_OUTAGE_WAIT` : '') +
    ` (${spans.join('; ')}${outages.length > 3 ? '; …' : ''})`
  );
}

/** A header line as its label and its value, so each page can set the label apart. */
export function labelled(line: string): [string, string] {
  const at = line.indexOf(': ');
  return at < 0 ? ['', line] : [line.slice(0, at), line.slice(at + 2)];
}

/** The verdict line and the counts. */
export function verdictLine(report: ConformanceReport): string {
  const c = counts(report);
  const why = report.incomplete.length ? `: incomplete, ${report.incomplete.join('; ')}` : '';
  return (
    `Verdict: ${report.verdict.toUpperCase()}${why}. ${report.findings.length} finding(s). ` +
    `Rules: ${c.pass} pass, ${c.fail} fail, ${c.blocked} blocked, ${c['not run']} not run, ${c.skipped} skipped, ` +
    `${c['not covered']} not covered.`
  );
}

/** What the run ends with on the console: the verdict, the counts, and the first finding's replay. */
export function closingText(report: ConformanceReport): string {
  const c = counts(report);
  const { documented } = report.coverage;
  const seenPairs = documented.filter((d) => d.seen).length;
  const why = report.incomplete.length ? ` (${report.incomplete.join('; ')})` : '';
  const level = report.coverage.levels ? `, TCL ${report.coverage.levels.level} of 7` : '';
  const first = report.findings[0];
  return (
    `\nVerdict: ${report.verdict.toUpperCase()}${why}.` +
    `\nConformance (${report.target}): ${c.pass} rules pass, ${c.fail} fail, ${c.blocked} blocked, ` +
    `${c['not run']} not run, ` +
    `${c.skipped} skipped, ${c['not covered']} not covered; ` +
    `${report.findings.length} finding(s); coverage ${seenPairs}/${documented.length}${level}; ` +
    `${report.drift.length} drift fields; ${report.requests} requests. ` +
    `fast-check seed ${report.seed ?? '-'}.` +
    (first ? `\nFirst finding: ${first.title}\n  Replay: ${first.replay}` : '')
  );
}

export const ruleText = (report: ConformanceReport, id: string) =>
  report.rows.find((r) => r.rule.id === id)?.rule.text ?? '';

function findingMarkdown(report: ConformanceReport, finding: Finding, n: number): string[] {
  const { exchange } = finding;
  const mockHint = report.meta.targetKind === 'mock' ? report.meta.replayMock : undefined;
  return [
    `### ${n}. ${finding.title}`,
    '',
    ...finding.rules.map((id) => `- **${id}**: ${ruleText(report, id)}`),
    '',
    `Tests (${finding.tests.length}): ${finding.tests.map((t) => `\`${t}\``).join(', ')}`,
    '',
    ...(finding.blocked.length
      ? [
          `Blocked (${finding.blocked.length}, their rules not decided): ${finding.blocked.map((t) => `\`${t}\``).join(', ')}`,
          '',
        ]
      : []),
    ...(finding.expected ? [`Expected: \`${finding.expected}\``, ''] : []),
    ...(finding.received ? [`Received: \`${finding.received}\``, ''] : []),
    ...(exchange
      ? [
          `Request: \`${exchange.method} ${exchange.url}\` → ${exchange.status}`,
          '',
          '```',
          exchange.body.slice(0, 600),
          '```',
          '',
          'Replay the request' + (mockHint ? ` (start the mock first: \`${mockHint}\`)` : '') + ':',
          '',
          '```sh',
          exchange.curl,
          '```',
          '',
        ]
      : []),
    'Replay the test:',
    '',
    '```sh',
    finding.replay,
    '```',
    '',
    `At \`${finding.location}\`; [in Playwright's report](${finding.reportLink}).`,
    '',
  ];
}

export function conformanceMarkdown(report: ConformanceReport): string {
  const lines = [
    `# Conformance: ${report.verdict.toUpperCase()}`,
    '',
    verdictLine(report),
    '',
    ...runLines(report).map((l) => {
      const [label, value] = labelled(l);
      return `- **${label}**: ${value}`;
    }),
    '',
  ];
  if (report.findings.length > 0) {
    lines.push(`## Findings (${report.findings.length})`, '');
    report.findings.forEach((f, i) => lines.push(...findingMarkdown(report, f, i + 1)));
  }
  const row = (r: RuleRow) => {
    const tests = r.tests.map((t) => `${mark(t.outcome)} ${t.title}`).join('<br>');
    return tableRow([r.rule.id, verdictText(r), cell(r.rule.text), cell(tests), cell(r.reasons.join('; '))]);
  };
  const table = ['| Rule | Verdict | Rule text | Decided by | Note |', '|---|---|---|---|---|'];
  const others = report.rows.filter((r) => r.verdict !== 'pass');
  if (others.length > 0) lines.push('## Rules not passing', '', ...table, ...others.map(row), '');
  lines.push(...explorationLines(report), ...productionLines(report), ...deprecationLines(report));
  const passing = report.rows.filter((r) => r.verdict === 'pass');
  lines.push(`## Passing rules (${passing.length})`, '', ...table, ...passing.map(row));
  return `${lines.join('\n')}\n`;
}

/** RFC 9745 writes the date as `@<seconds>`: shown with the date it stands for. */
export const withDate = (value: string) => {
  const seconds = /^@(\d+)$/.exec(value)?.[1];
  return seconds ? `${value} (${new Date(Number(seconds) * 1000).toISOString().slice(0, 10)})` : value;
};

export const goneText = (d: ConformanceReport['deprecations'][number]) =>
  d.gone.length ? `gone (${d.gone.join(', ')})` : '';

/** What the deprecation table shows, above it on every page (Markdown; the HTML drops the code marks). */
export const DEPRECATION_NOTE =
  'What each deprecated operation said of itself (`Deprecation`, RFC 9745; `Sunset`, RFC 8594; ' +
  '`Link` rel="deprecation"), and whether a live service retired it (gone: 404 or 410 with a JSON body; ' +
  'the tests that meet it are not run). Reported, never failed.';

function deprecationLines(report: ConformanceReport): string[] {
  if (report.deprecations.length === 0) return [];
  return [
    '## Deprecation signals',
    '',
    DEPRECATION_NOTE,
    '',
    '| Operation | Answers | Gone | Deprecation | Sunset | Link |',
    '|---|---|---|---|---|---|',
    ...report.deprecations.map((d) =>
      tableRow([
        d.operation,
        d.answers,
        goneText(d),
        d.answers ? cell(d.deprecation.map(withDate).join('; ')) : 'not reached',
        d.answers ? cell(d.sunset.join('; ')) : '',
        d.answers ? cell(d.link.join('; ')) : '',
      ]),
    ),
    '',
  ];
}

function explorationLines(report: ConformanceReport): string[] {
  if (report.exploration.length === 0) return [];
  const sum = (key: 'positive' | 'negative' | 'notRun' | 'refused' | 'served') =>
    report.exploration.reduce((n, r) => n + (r[key] ?? 0), 0);
  const [positive, negative, notRun] = [sum('positive'), sum('negative'), sum('notRun')];
  const sent = report.explorationRequests;
  const budget = report.run.budget;
  const share =
    sent === undefined
      ? ''
      : ` It sent ${sent} requests (cases, properties and page tokens): ` +
        (budget !== null
          ? `${((100 * sent) / budget).toFixed(1)}% of the run's budget of ${budget}.`
          : `${report.requests > 0 ? ((100 * sent) / report.requests).toFixed(1) : '0'}% of the run's ${report.requests}.`);
  return [
    '## Exploration',
    '',
    `Cases derived from the contract alone: ${positive} positive and ${negative} negative run, ` +
      `${notRun} not run; of the invalid values, ${sum('refused')} refused and ${sum('served')} served ` +
      `(live: drift the interface allows, never a failure).${share} The forms each operation's requests ` +
      'took are in the coverage report.',
    '',
    '| Operation | Positive | Negative | Not run | Invalid refused | Invalid served | Parameters |',
    '|---|---|---|---|---|---|---|',
    ...report.exploration.map((r) =>
      tableRow([r.operation, r.positive, r.negative, r.notRun, r.refused ?? 0, r.served ?? 0, r.parameters]),
    ),
    '',
  ];
}

export function driftMarkdown(report: ConformanceReport): string {
  const lines = [
    '# Drift: fields the contract does not name',
    '',
    'Reported, never failed: clients must tolerate new fields (HTTP-03). ' +
      'A field here may belong in the contract.',
    '',
  ];
  if (report.drift.length === 0) lines.push('None seen.');
  else
    lines.push(
      '| Operation | Status | Field | Times seen |',
      '|---|---|---|---|',
      ...report.drift.map(
        (d) =>
          `| ${d.operation} | ${d.status} | \`${d.field}\`${d.note ? ` ${cell(d.note)}` : ''} | ${d.count} |`,
      ),
    );
  return `${lines.join('\n')}\n`;
}
