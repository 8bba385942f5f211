import type { Contract } from '../contract/index.ts';
import { LEVELS, RULES } from '../spec-diff/index.ts';
import type { ConformanceReport } from './model.ts';
import { suiteText } from './render.ts';
import { escapeHtml as escape, htmlPage, htmlRow } from './html.ts';

const DEPRECATED = ' <i>deprecated</i>';
const titleOf = (contract: Contract, name: string) =>
  contract.documents[name as keyof Contract['documents']].info.title;

/** The verdicts the docs may publish: those of a clean full run, or none, and why. */
export type PublishedVerdicts =
  { report: ConformanceReport; source: string } | { report?: never; why: string };

/**
 * Readers of the published spec see only what the service did on a full run with no fault switched
 * on that ran to its end: a faulted, partial or incomplete run says nothing about the service.
 */
export function publishedVerdicts(report: ConformanceReport | undefined): PublishedVerdicts {
  if (!report) return { why: 'there is no conformance report yet' };
  const { meta, run } = report;
  if (!meta || !run?.suite || !run.target)
    return { why: 'the conformance report does not say what it ran (an older suite wrote it)' };
  const faults = meta.faults.length ? meta.faults : (run.faults ?? []);
  if (faults.length > 0) return { why: `the last run had faults switched on (${faults.join(', ')})` };
  if (meta.partial.length > 0) return { why: `the last run was partial (${meta.partial.join('; ')})` };
  if (report.incomplete.length > 0)
    return { why: `the last run did not finish (${report.incomplete.join('; ')})` };
  return {
    report,
    source: `the full conformance run of ${meta.endedAt} against ${run.target}, with suite ${suiteText(run.suite)}`,
  };
}

/**
 * The index of the published documentation: both documents, every operation with the rules it
 * carries, and each rule's verdict when the report is of a clean full run (else why none is shown).
 */
export function docsIndex(
  contract: Contract,
  pages: Record<string, string>,
  report?: ConformanceReport,
): string {
  const published = publishedVerdicts(report);
  const verdicts = new Map(published.report?.rows.map((row) => [row.rule.id, row.verdict]) ?? []);
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
  const status = published.report
    ? `<p class="verdicts">Verdicts from ${escape(published.source)}.</p>`
    : `<p class="verdicts">No verdicts: ${escape(published.why)}. Verdicts are published only from a ` +
      'full conformance run with no fault switched on that ran to its end ' +
      '(<code>npm run conformance</code>, then <code>npm run docs</code>).</p>';
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
.not-covered,.info{color:#57606a}.blocked{color:#8250df}.not-run{color:#bc4c00}`;

const page = (title: string, body: string) => htmlPage({ title, body, styles: [STYLE] });
