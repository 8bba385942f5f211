import type { ConformanceReport, Verdict } from './model.ts';

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

function header(report: ConformanceReport): string[] {
  const c = counts(report);
  const { run } = report;
  return [
    `Verdict: ${report.verdict.toUpperCase()}${report.incomplete.length ? `: incomplete, ${report.incomplete.join('; ')}` : ''}.`,
    '',
    `Target: ${report.target}. Generated ${report.generatedAt}. fast-check seed: ${report.seed ?? 'none'}.`,
    '',
    `Rules: ${c.pass} pass, ${c.fail} fail, ${c['not run']} not run, ${c.skipped} skipped, ${c['not covered']} not covered. ` +
      `Requests: ${report.requests}${run.budget !== null ? ` of a budget of ${run.budget}` : ''}${run.perSecond !== null ? `, at most ${run.perSecond} per second` : ''}.`,
    ...(run.transportFailures.length > 0
      ? [
          '',
          `No answer: ${run.transportFailures.length} time(s) (${run.transportFailures.slice(-3).join('; ')}).`,
        ]
      : []),
    ...(report.retries.length > 0
      ? [
          '',
          `Retried: ${report.retries.length} (${[...new Set(report.retries.map((r) => r.reason))].slice(0, 5).join('; ')}).`,
        ]
      : []),
  ];
}

export function conformanceMarkdown(report: ConformanceReport): string {
  const lines = [
    '# Conformance',
    '',
    ...header(report),
    '',
    '| Rule | Verdict | Rule text | Decided by | Note |',
    '|---|---|---|---|---|',
  ];
  for (const row of report.rows) {
    const tests = row.tests.map((t) => `${mark(t.outcome)} ${t.title}`).join('<br>');
    lines.push(
      `| ${row.rule.id} | ${row.verdict} | ${cell(row.rule.text)} | ${cell(tests)} | ${cell(row.reasons.join('; '))} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function conformanceHtml(report: ConformanceReport): string {
  const colour: Record<Verdict, string> = {
    pass: '#1a7f37',
    fail: '#cf222e',
    'not run': '#bc4c00',
    skipped: '#9a6700',
    'not covered': '#57606a',
  };
  const rows = report.rows
    .map(
      (row) =>
        `<tr><td><b>${row.rule.id}</b></td><td style="color:${colour[row.verdict]}"><b>${row.verdict}</b></td><td>${escape(row.rule.text)}</td><td>${row.tests
          .map((t) => `${mark(t.outcome)} ${escape(t.title)}`)
          .join('<br>')}</td><td>${escape(row.reasons.join('; '))}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;vertical-align:top;text-align:left}</style>
</head><body><h1>Conformance</h1>
${header(report)
  .filter(Boolean)
  .map((l) => `<p>${escape(l)}</p>`)
  .join('\n')}
<table><thead><tr><th>Rule</th><th>Verdict</th><th>Rule text</th><th>Decided by</th><th>Note</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>
`;
}

export function coverageMarkdown(report: ConformanceReport): string {
  const { documented, undocumented, ratio } = report.coverage;
  const lines = [
    '# Coverage: operation × status',
    '',
    `${documented.filter((d) => d.seen).length} of ${documented.length} documented (operation, status) pairs exercised (${(ratio * 100).toFixed(1)}%). Target: ${report.target}.`,
    '',
    '| Operation | Status | Exercised |',
    '|---|---|---|',
    ...documented.map((d) => `| ${d.operation} | ${d.status} | ${d.seen ? 'yes' : '**no**'} |`),
  ];
  if (undocumented.length > 0)
    lines.push(
      '',
      '## Seen but not documented',
      '',
      ...undocumented.map((u) => `- ${u.operation} ${u.status}`),
    );
  return `${lines.join('\n')}\n`;
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
