import { copyable, escapeHtml as escape, htmlPage, htmlRow as row } from './html.ts';
import type { ConformanceReport, Finding, RuleRow, Verdict } from './model.ts';
import { productionHtml } from './render-productions.ts';
import {
  DEPRECATION_NOTE,
  goneText,
  labelled,
  mark,
  ruleText,
  runLines,
  verdictLine,
  verdictText,
  withDate,
} from './render.ts';

const COLOUR: Record<Verdict, string> = {
  pass: '#1a7f37',
  fail: '#cf222e',
  blocked: '#8250df',
  'not run': '#bc4c00',
  skipped: '#9a6700',
  'not covered': '#57606a',
};

function exchangeHtml(report: ConformanceReport, exchange: NonNullable<Finding['exchange']>): string {
  const mockHint = report.meta.targetKind === 'mock' ? report.meta.replayMock : undefined;
  return [
    `<p>Request: <code>${escape(`${exchange.method} ${exchange.url}`)}</code> → ` +
      `<b>${exchange.status}</b></p>`,
    `<pre class="body">${escape(exchange.body.slice(0, 2_000))}</pre>`,
    `${mockHint ? `<p>Start the mock the run used:</p>${copyable(mockHint)}` : ''}` +
      `<p>Replay the request:</p>${copyable(exchange.curl)}`,
  ].join('\n');
}

function findingHtml(report: ConformanceReport, finding: Finding, n: number): string {
  // Each rule's page in the docs (npm run docs), written beside this report under docs/.
  const rules = finding.rules.map(
    (id) => `<li><b><a href="docs/rules/${id}.html">${id}</a></b>: ${escape(ruleText(report, id))}</li>`,
  );
  const said = (label: string, text: string | undefined) =>
    text ? `<p>${label}: <code>${escape(text)}</code></p>` : '';
  const link = `<a href="${escape(finding.reportLink)}">in Playwright's report</a>`;
  const summary =
    `<b>${n}. ${escape(finding.title)}</b> ` +
    `<span class="muted">${finding.rules.join(', ')}; ${finding.tests.length} test(s)` +
    `${finding.blocked.length ? `, ${finding.blocked.length} blocked` : ''}</span>`;
  return `<details class="finding" id="finding-${finding.id}" open><summary>${summary}</summary>
<ul>${rules.join('')}</ul>
${said('Expected', finding.expected)}${said('Received', finding.received)}
<p>Tests:</p><ul>${finding.tests.map((t) => `<li>${escape(t)}</li>`).join('')}</ul>
${finding.exchange ? exchangeHtml(report, finding.exchange) : ''}
<p>Replay the test:</p>${copyable(finding.replay)}
<p class="muted">At <code>${escape(finding.location)}</code>; ${link}.</p>
</details>`;
}

function rulesTable(rows: RuleRow[]): string {
  const body = rows.map((r) => {
    const tests = r.tests.map((t) => `${mark(t.outcome)} ${escape(t.title)}`).join('<br>');
    return (
      `<tr><td><b>${r.rule.id}</b></td><td style="color:${COLOUR[r.verdict]}"><b>${escape(verdictText(r))}</b></td>` +
      `<td>${escape(r.rule.text)}</td><td>${tests}</td><td>${escape(r.reasons.join('; '))}</td></tr>`
    );
  });
  const head = row(['Rule', 'Verdict', 'Rule text', 'Decided by', 'Note'], 'th');
  return `<table><thead>${head}</thead><tbody>\n${body.join('\n')}\n</tbody></table>`;
}

function deprecationHtml(report: ConformanceReport): string {
  if (report.deprecations.length === 0) return '';
  const rows = report.deprecations.map((d) =>
    d.answers
      ? row([
          d.operation,
          String(d.answers),
          goneText(d),
          escape(d.deprecation.map(withDate).join('; ')),
          escape(d.sunset.join('; ')),
          escape(d.link.join('; ')),
        ])
      : `<tr><td>${d.operation}</td><td>0</td><td colspan="4" class="muted">not reached</td></tr>`,
  );
  const head = row(['Operation', 'Answers', 'Gone', 'Deprecation', 'Sunset', 'Link'], 'th');
  return `<h2>Deprecation signals</h2><p class="muted">${escape(DEPRECATION_NOTE.replaceAll('`', ''))}</p>
<table><thead>${head}</thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

const style = (report: ConformanceReport) => {
  const verdict =
    report.verdict === 'pass' ? COLOUR.pass : report.verdict === 'fail' ? COLOUR.fail : COLOUR['not run'];
  return `.verdict{font-size:1.4em;color:${verdict}}
.finding{border:1px solid #d0d7de;border-left:4px solid ${COLOUR.fail};padding:.5em 1em;margin:1em 0}`;
};

export function conformanceHtml(report: ConformanceReport): string {
  const others = report.rows.filter((r) => r.verdict !== 'pass');
  const passing = report.rows.filter((r) => r.verdict === 'pass');
  const findings = report.findings.map((f, i) => findingHtml(report, f, i + 1));
  const body = `<h1>Conformance</h1>
<p class="verdict"><b>${escape(verdictLine(report))}</b></p>
<ul class="run">${runLines(report)
    .map(labelled)
    .map(([label, value]) => `<li><b>${escape(label)}</b>: ${escape(value)}</li>`)
    .join('')}</ul>
${findings.length ? `<h2>Findings (${findings.length})</h2>\n${findings.join('\n')}` : '<p>No findings.</p>'}
${others.length ? `<h2>Rules not passing (${others.length})</h2>\n${rulesTable(others)}` : ''}
${productionHtml(report)}
${deprecationHtml(report)}
<details><summary><h2 style="display:inline">Passing rules (${passing.length})</h2></summary>
${rulesTable(passing)}
</details>`;
  return htmlPage({ title: `Conformance: ${report.verdict}`, body, styles: [style(report)] });
}
