import type { Contract } from '../contract/index.ts';
import { LEVELS, RULES } from '../spec-diff/index.ts';
import type { ConformanceReport } from './model.ts';
import { escapeHtml as escape, htmlPage, htmlRow } from './html.ts';

const DEPRECATED = ' <i>deprecated</i>';
const titleOf = (contract: Contract, name: string) =>
  contract.documents[name as keyof Contract['documents']].info.title;

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
    const text = escape(contract.rules.find((r) => r.id === id)?.text ?? '');
    const shown = verdict ? ` <b class="${verdict.replace(' ', '-')}">${verdict}</b>` : '';
    return `<span class="rule" title="${text}">${id}${shown}</span>`;
  };
  const operations = [...contract.operations.values()]
    .map((op) =>
      htmlRow([
        `<a href="${pages[op.document]}">${op.document}</a>`,
        `<code>${op.method.toUpperCase()} ${escape(op.path)}</code>${op.deprecated ? DEPRECATED : ''}`,
        escape(op.summary),
        op.rules.map(rule).join(' '),
      ]),
    )
    .join('\n');
  const catalogue = contract.rules
    .map((r) => `<tr><td>${rule(r.id)}</td><td>${escape(r.text)}</td><td>${r.where.join(', ')}</td></tr>`)
    .join('\n');
  const status = report
    ? `<p>Verdicts from the conformance run of ${escape(report.generatedAt)} ` +
      `against ${escape(report.target)}.</p>`
    : '<p>No conformance report yet: run <code>npm run conformance</code>, then <code>npm run docs</code>, ' +
      "to see each rule's verdict here.</p>";
  return page(
    'Content, Licence and Membership API: documentation',
    `<h1>Content, Licence and Membership API</h1>
<ul>${Object.entries(pages)
      .map(([name, href]) => `<li><a href="${href}">${escape(titleOf(contract, name))}</a></li>`)
      .join('')}<li><a href="${SPEC_DIFF_RULES}">The gate on contract changes: its rules</a></li></ul>
<h2>Operations and the rules they carry</h2>
${status}
<table><thead><tr><th>Document</th><th>Operation</th><th>Summary</th><th>Rules</th></tr></thead><tbody>
${operations}
</tbody></table>
<h2>Rule catalogue</h2>
<table><thead><tr><th>Rule</th><th>Text</th><th>Checkable</th></tr></thead><tbody>
${catalogue}
</tbody></table>`,
  );
}

export const SPEC_DIFF_RULES = 'spec-diff-rules.html';

/** The gate's rule table, from the code: every rule with its level, side of the wire and reason. */
export function specDiffRulesPage(): string {
  const counts = LEVELS.map((l) => `${RULES.filter((r) => r.level === l).length} ${l}`).join(', ');
  const areas = [...new Set(RULES.map((r) => r.area))];
  const sections = areas.map((area) => {
    const rows = RULES.filter((r) => r.area === area)
      .map(
        (r) =>
          `<tr id="${r.id}"><td><code>${r.id}</code></td><td class="${r.level}">${r.level}</td>` +
          `<td>${r.direction}</td><td>${escape(r.reason)}</td></tr>`,
      )
      .join('\n');
    return `<h2>${escape(area)}</h2>
<table><thead><tr><th>Rule</th><th>Level</th><th>Side</th><th>Why</th></tr></thead><tbody>
${rows}
</tbody></table>`;
  });
  return page(
    'The gate on contract changes: its rules',
    `<h1>The gate on contract changes: its rules</h1>
<p><code>npm run spec:diff</code> classifies every change between two versions of the contract by one of
these ${RULES.length} rules (${counts}). <b>error</b> breaks clients, <b>warning</b> may break them,
<b>info</b> is safe. Schema rules are named after where the schema sits: narrowing what a request may
carry breaks clients, and so does widening what a response may contain; the opposite of each is safe.
A change no rule names is reported as a <code>keyword-changed</code> warning, never left out.</p>
${sections.join('\n')}`,
  );
}

const STYLE = `body{font-size:15px;max-width:80em}table{margin-bottom:2em}
.rule{white-space:nowrap;margin-right:.6em}
.pass{color:#1a7f37}.fail,.error{color:#cf222e}.skipped,.warning{color:#9a6700}
.not-covered,.info{color:#57606a}`;

const page = (title: string, body: string) => htmlPage({ title, body, styles: [STYLE] });
