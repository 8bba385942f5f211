import type { ConformanceReport, Finding, RuleRow, Verdict } from './model.ts';
import { levelLine } from './render-coverage.ts';

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
/** Text made safe for HTML, for every page the reports write. */
export const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const mark = (outcome: string) =>
  outcome === 'passed' ? '✓' : outcome === 'failed' ? '✗' : outcome === 'not run' ? '…' : '–';

export function counts(report: ConformanceReport): Record<Verdict, number> {
  const result: Record<Verdict, number> = { pass: 0, fail: 0, 'not run': 0, skipped: 0, 'not covered': 0 };
  for (const row of report.rows) result[row.verdict]++;
  return result;
}

/** The run's metadata, one line each: what was tested, with what, when, and how complete. */
export function runLines(report: ConformanceReport): string[] {
  const { meta, run } = report;
  return [
    `Target: ${meta.targetKind} ${meta.baseUrl}`,
    `Suite: ${meta.suiteCommit ? meta.suiteCommit.slice(0, 12) : 'not a git checkout'}; contract ${meta.contract.version} (${meta.contract.hash})`,
    `Faults: ${meta.faults.length ? meta.faults.join(', ') : 'none'}; fast-check seed: ${meta.seed ?? 'none'}`,
    `Time: ${meta.startedAt} to ${meta.endedAt}`,
    `Requests: ${report.requests}${run.budget !== null ? ` of a budget of ${run.budget}` : ''}${run.perSecond !== null ? `, at most ${run.perSecond} per second` : ''}`,
    `Tests: ${meta.tests.run} run of ${meta.tests.total}; ${meta.partial.length ? `PARTIAL (${meta.partial.join('; ')})` : 'the whole suite'}`,
    ...(report.coverage.levels ? [levelLine(report.coverage.levels)] : []),
    ...(run.transportFailures.length > 0
      ? [`No answer: ${run.transportFailures.length} time(s) (${run.transportFailures.slice(-3).join('; ')})`]
      : []),
    ...(report.retries.length > 0
      ? [
          `Retried: ${report.retries.length} (${[...new Set(report.retries.map((r) => r.reason))].slice(0, 5).join('; ')})`,
        ]
      : []),
  ];
}

/** The verdict line and the counts. */
export function verdictLine(report: ConformanceReport): string {
  const c = counts(report);
  const why = report.incomplete.length ? `: incomplete, ${report.incomplete.join('; ')}` : '';
  return (
    `Verdict: ${report.verdict.toUpperCase()}${why}. ${report.findings.length} finding(s). ` +
    `Rules: ${c.pass} pass, ${c.fail} fail, ${c['not run']} not run, ${c.skipped} skipped, ${c['not covered']} not covered.`
  );
}

const ruleText = (report: ConformanceReport, id: string) =>
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
    ...runLines(report).map((l) => `- ${l}`),
    '',
  ];
  if (report.findings.length > 0) {
    lines.push(`## Findings (${report.findings.length})`, '');
    report.findings.forEach((f, i) => lines.push(...findingMarkdown(report, f, i + 1)));
  }
  const row = (r: RuleRow) => {
    const tests = r.tests.map((t) => `${mark(t.outcome)} ${t.title}`).join('<br>');
    return `| ${r.rule.id} | ${r.verdict} | ${cell(r.rule.text)} | ${cell(tests)} | ${cell(r.reasons.join('; '))} |`;
  };
  const table = ['| Rule | Verdict | Rule text | Decided by | Note |', '|---|---|---|---|---|'];
  const others = report.rows.filter((r) => r.verdict !== 'pass');
  if (others.length > 0) lines.push('## Rules not passing', '', ...table, ...others.map(row), '');
  lines.push(...explorationLines(report), ...deprecationLines(report));
  const passing = report.rows.filter((r) => r.verdict === 'pass');
  lines.push(`## Passing rules (${passing.length})`, '', ...table, ...passing.map(row));
  return `${lines.join('\n')}\n`;
}

const COLOUR: Record<Verdict, string> = {
  pass: '#1a7f37',
  fail: '#cf222e',
  'not run': '#bc4c00',
  skipped: '#9a6700',
  'not covered': '#57606a',
};

/** A block of text a reader copies with one click (the button falls back to selecting it). */
const copyable = (text: string) =>
  `<div class="copy"><pre><code>${escape(text)}</code></pre><button type="button" data-copy="${escape(text)}">Copy</button></div>`;

function findingHtml(report: ConformanceReport, finding: Finding, n: number): string {
  const { exchange } = finding;
  const mockHint = report.meta.targetKind === 'mock' ? report.meta.replayMock : undefined;
  return `<details class="finding" id="finding-${finding.id}" open><summary><b>${n}. ${escape(finding.title)}</b> <span class="muted">${finding.rules.join(', ')}; ${finding.tests.length} test(s)</span></summary>
<ul>${finding.rules.map((id) => `<li><b>${id}</b>: ${escape(ruleText(report, id))}</li>`).join('')}</ul>
${finding.expected ? `<p>Expected: <code>${escape(finding.expected)}</code></p>` : ''}${finding.received ? `<p>Received: <code>${escape(finding.received)}</code></p>` : ''}
<p>Tests:</p><ul>${finding.tests.map((t) => `<li>${escape(t)}</li>`).join('')}</ul>
${
  exchange
    ? `<p>Request: <code>${escape(`${exchange.method} ${exchange.url}`)}</code> → <b>${exchange.status}</b></p>
<pre class="body">${escape(exchange.body.slice(0, 2_000))}</pre>
${mockHint ? `<p>Start the mock the run used:</p>${copyable(mockHint)}` : ''}<p>Replay the request:</p>${copyable(exchange.curl)}`
    : ''
}
<p>Replay the test:</p>${copyable(finding.replay)}
<p class="muted">At <code>${escape(finding.location)}</code>; <a href="${escape(finding.reportLink)}">in Playwright's report</a>.</p>
</details>`;
}

function rulesTable(report: ConformanceReport, rows: RuleRow[]): string {
  const body = rows
    .map(
      (row) =>
        `<tr><td><b>${row.rule.id}</b></td><td style="color:${COLOUR[row.verdict]}"><b>${row.verdict}</b></td><td>${escape(row.rule.text)}</td><td>${row.tests
          .map((t) => `${mark(t.outcome)} ${escape(t.title)}`)
          .join('<br>')}</td><td>${escape(row.reasons.join('; '))}</td></tr>`,
    )
    .join('\n');
  return `<table><thead><tr><th>Rule</th><th>Verdict</th><th>Rule text</th><th>Decided by</th><th>Note</th></tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function deprecationHtml(report: ConformanceReport): string {
  if (report.deprecations.length === 0) return '';
  const rows = report.deprecations
    .map((d) =>
      d.answers
        ? `<tr><td>${d.operation}</td><td>${d.answers}</td><td>${goneText(d)}</td><td>${escape(d.deprecation.map(withDate).join('; '))}</td><td>${escape(d.sunset.join('; '))}</td><td>${escape(d.link.join('; '))}</td></tr>`
        : `<tr><td>${d.operation}</td><td>0</td><td colspan="4" class="muted">not reached</td></tr>`,
    )
    .join('\n');
  return `<h2>Deprecation signals</h2><p class="muted">What each deprecated operation said of itself (Deprecation, RFC 9745; Sunset, RFC 8594; Link rel="deprecation"), and whether a live service retired it (gone: 404 or 410 with a JSON body; the tests that meet it are not run). Reported, never failed.</p>
<table><thead><tr><th>Operation</th><th>Answers</th><th>Gone</th><th>Deprecation</th><th>Sunset</th><th>Link</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

const COPY_SCRIPT = `document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  try {
    await navigator.clipboard.writeText(button.dataset.copy);
    button.textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(button.previousElementSibling);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    button.textContent = 'Selected: press Ctrl+C';
  }
});`;

export function conformanceHtml(report: ConformanceReport): string {
  const others = report.rows.filter((r) => r.verdict !== 'pass');
  const passing = report.rows.filter((r) => r.verdict === 'pass');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance: ${report.verdict}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:90em}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}
.verdict{font-size:1.4em;color:${report.verdict === 'pass' ? COLOUR.pass : report.verdict === 'fail' ? COLOUR.fail : COLOUR['not run']}}
.finding{border:1px solid #d0d7de;border-left:4px solid ${COLOUR.fail};padding:.5em 1em;margin:1em 0}.muted{color:#57606a}
pre{background:#f6f8fa;padding:.5em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}.copy{display:flex;gap:.5em;align-items:flex-start}.copy pre{flex:1;margin:0}</style>
</head><body><h1>Conformance</h1>
<p class="verdict"><b>${escape(verdictLine(report))}</b></p>
<ul class="run">${runLines(report)
    .map((l) => `<li>${escape(l)}</li>`)
    .join('')}</ul>
${report.findings.length ? `<h2>Findings (${report.findings.length})</h2>\n${report.findings.map((f, i) => findingHtml(report, f, i + 1)).join('\n')}` : '<p>No findings.</p>'}
${others.length ? `<h2>Rules not passing (${others.length})</h2>\n${rulesTable(report, others)}` : ''}
${deprecationHtml(report)}
<details><summary><h2 style="display:inline">Passing rules (${passing.length})</h2></summary>
${rulesTable(report, passing)}
</details>
<script>${COPY_SCRIPT}</script>
</body></html>
`;
}

/** RFC 9745 writes the date as `@<seconds>`: shown with the date it stands for. */
const withDate = (value: string) => {
  const seconds = /^@(\d+)$/.exec(value)?.[1];
  return seconds ? `${value} (${new Date(Number(seconds) * 1000).toISOString().slice(0, 10)})` : value;
};

const goneText = (d: ConformanceReport['deprecations'][number]) =>
  d.gone.length ? `gone (${d.gone.join(', ')})` : '';

function deprecationLines(report: ConformanceReport): string[] {
  if (report.deprecations.length === 0) return [];
  return [
    '## Deprecation signals',
    '',
    'What each deprecated operation said of itself (`Deprecation`, RFC 9745; `Sunset`, RFC 8594; `Link` rel="deprecation"), and whether a live service retired it (gone: 404 or 410 with a JSON body; the tests that meet it are not run). Reported, never failed.',
    '',
    '| Operation | Answers | Gone | Deprecation | Sunset | Link |',
    '|---|---|---|---|---|---|',
    ...report.deprecations.map(
      (d) =>
        `| ${d.operation} | ${d.answers} | ${goneText(d)} | ${d.answers ? cell(d.deprecation.map(withDate).join('; ')) : 'not reached'} | ${d.answers ? cell(d.sunset.join('; ')) : ''} | ${d.answers ? cell(d.link.join('; ')) : ''} |`,
    ),
    '',
  ];
}

function explorationLines(report: ConformanceReport): string[] {
  if (report.exploration.length === 0) return [];
  const sum = (key: 'positive' | 'negative' | 'notRun' | 'refused' | 'served') =>
    report.exploration.reduce((n, r) => n + (r[key] ?? 0), 0);
  return [
    '## Exploration',
    '',
    `Cases derived from the contract alone: ${sum('positive')} positive and ${sum('negative')} negative run, ${sum('notRun')} not run; of the invalid values, ${sum('refused')} refused and ${sum('served')} served (live: drift the interface allows, never a failure).`,
    '',
    '| Operation | Positive | Negative | Not run | Invalid refused | Invalid served | Parameters |',
    '|---|---|---|---|---|---|---|',
    ...report.exploration.map(
      (r) =>
        `| ${r.operation} | ${r.positive} | ${r.negative} | ${r.notRun} | ${r.refused ?? 0} | ${r.served ?? 0} | ${r.parameters} |`,
    ),
    '',
  ];
}

export function driftMarkdown(report: ConformanceReport): string {
  const lines = [
    '# Drift: fields the contract does not name',
    '',
    'Reported, never failed: clients must tolerate new fields (HTTP-03). A field here may belong in the contract.',
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
