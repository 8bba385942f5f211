import type { Contract } from '../contract/index.ts';
import type { ConformanceReport } from './model.ts';
import { escape } from './render.ts';

/**
 * The index of the published documentation: both documents, every operation with the rules it
 * carries, and, when a conformance report exists, each rule's last verdict.
 */
export function docsIndex(
  contract: Contract,
  pages: Record<string, string>,
  report?: ConformanceReport,
): string {
  const verdicts = new Map(report?.rows.map((row) => [row.rule.id, row.verdict]) ?? []);
  const rule = (id: string) => {
    const verdict = verdicts.get(id);
    return `<span class="rule" title="${escape(contract.rules.find((r) => r.id === id)?.text ?? '')}">${id}${verdict ? ` <b class="${verdict.replace(' ', '-')}">${verdict}</b>` : ''}</span>`;
  };
  const operations = [...contract.operations.values()]
    .map(
      (op) =>
        `<tr><td><a href="${pages[op.document]}">${op.document}</a></td><td><code>${op.method.toUpperCase()} ${escape(op.path)}</code>${op.deprecated ? ' <i>deprecated</i>' : ''}</td><td>${escape(op.summary)}</td><td>${op.rules.map(rule).join(' ')}</td></tr>`,
    )
    .join('\n');
  const catalogue = contract.rules
    .map((r) => `<tr><td>${rule(r.id)}</td><td>${escape(r.text)}</td><td>${r.where.join(', ')}</td></tr>`)
    .join('\n');
  const status = report
    ? `<p>Verdicts from the conformance run of ${escape(report.generatedAt)} against ${escape(report.target)}.</p>`
    : "<p>No conformance report yet: run <code>npm run conformance</code>, then <code>npm run docs</code>, to see each rule's verdict here.</p>";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Content, Licence and Membership API: documentation</title>
<style>body{font:15px system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin-bottom:2em}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}.rule{white-space:nowrap;margin-right:.6em}.pass{color:#1a7f37}.fail{color:#cf222e}.skipped{color:#9a6700}.not-covered{color:#57606a}</style>
</head><body>
<h1>Content, Licence and Membership API</h1>
<ul>${Object.entries(pages)
    .map(
      ([name, href]) =>
        `<li><a href="${href}">${escape(contract.documents[name as keyof Contract['documents']].info.title)}</a></li>`,
    )
    .join('')}</ul>
<h2>Operations and the rules they carry</h2>
${status}
<table><thead><tr><th>Document</th><th>Operation</th><th>Summary</th><th>Rules</th></tr></thead><tbody>
${operations}
</tbody></table>
<h2>Rule catalogue</h2>
<table><thead><tr><th>Rule</th><th>Text</th><th>Checkable</th></tr></thead><tbody>
${catalogue}
</tbody></table>
</body></html>
`;
}
