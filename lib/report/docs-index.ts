import type { Contract } from '../contract/index.ts';
import { CHANGELOG, docsPage, OPEN_TARGET, ruleHref, SPEC_DIFF_RULES } from '../docs/links.ts';
import { publishedVerdicts } from '../docs/published.ts';
import { searchHtml, type SearchItem } from '../docs/search.ts';
import { notPassingText, stripHtml, verifiedText, type Verification } from '../docs/verified.ts';
import { LEVELS, RULES, type Rule } from '../spec-diff/index.ts';
import type { ConformanceReport } from './model.ts';
import { escapeHtml as escape, htmlRow } from './html.ts';

export { publishedVerdicts, type PublishedVerdicts } from '../docs/published.ts';
export { SPEC_DIFF_RULES } from '../docs/links.ts';

const DEPRECATED = ' <i>deprecated</i>';
const titleOf = (contract: Contract, name: string) =>
  contract.documents[name as keyof Contract['documents']].info.title;

/** What the index shows beside the contract: production over the nights, and the search's index. */
export interface IndexExtras {
  verification?: Verification;
  search?: SearchItem[];
}

function productionHtml(contract: Contract, v: Verification | undefined): string {
  if (!v) return '';
  if ('why' in v) return `<p class="production">Not verified against production: ${escape(v.why)}.</p>`;
  const all = contract.rules.map((r) => r.id);
  const failing = all.filter((id) => v.verdicts[id] !== undefined && v.verdicts[id] !== 'pass');
  return `<p class="production">${escape(verifiedText(v, all))} (${escape(v.target)}). ${stripHtml(v)}</p>
${failing.length ? `<ul>${failing.map((id) => `<li><a href="${ruleHref(id)}">${id}</a>: ${escape(notPassingText(v, id))}</li>`).join('')}</ul>` : ''}`;
}

/**
 * The index of the published documentation: both documents, every operation with the rules it
 * carries, and each rule's verdict when the report is of a clean full run (else why none is shown);
 * with production's record and the search when they are given.
 */
export function docsIndex(
  contract: Contract,
  pages: Record<string, string>,
  report?: ConformanceReport,
  extras: IndexExtras = {},
): string {
  const published = publishedVerdicts(report);
  const verdicts = new Map(published.report?.rows.map((row) => [row.rule.id, row.verdict]) ?? []);
  const rule = (id: string) => {
    const verdict = verdicts.get(id);
    const text = escape(contract.rules.find((r) => r.id === id)?.text ?? '');
    const shown = verdict ? ` <b class="${verdict.replace(' ', '-')}">${verdict}</b>` : '';
    return `<a class="rule" href="${ruleHref(id)}" title="${text}">${id}${shown}</a>`;
  };
  const v = extras.verification;
  const production = (rules: string[]) =>
    v && !('why' in v)
      ? escape(verifiedText(v, rules).replace(/^Verified against production on \S+: /, ''))
      : 'not verified';
  const operations = [...contract.operations.values()]
    .map((op) =>
      htmlRow([
        `<a href="${pages[op.document]}#operation/${op.id}">${op.document}</a>`,
        `<code id="op-${op.id}">${op.method.toUpperCase()} ${escape(op.path)}</code>${op.deprecated ? DEPRECATED : ''}`,
        escape(op.summary),
        op.rules.map(rule).join(' '),
        production(op.rules),
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
  const search = extras.search ? searchHtml(extras.search) : undefined;
  return docsPage(
    'Content, Licence and Membership API: documentation',
    `<h1>Content, Licence and Membership API</h1>
<ul>${Object.entries(pages)
      .map(([name, href]) => `<li><a href="${href}">${escape(titleOf(contract, name))}</a></li>`)
      .join('')}<li><a href="${CHANGELOG}.html">Changelog: what changed in the contract, and when</a></li>
<li><a href="${SPEC_DIFF_RULES}">The gate on contract changes: its rules</a></li></ul>
${search?.html ?? ''}
${productionHtml(contract, v)}
<h2>Operations and the rules they carry</h2>
${status}
<table><thead><tr><th>Document</th><th>Operation</th><th>Summary</th><th>Rules</th><th>Production</th></tr></thead><tbody>
${operations}
</tbody></table>
<h2>Rule catalogue</h2>
<table><thead><tr><th>Rule</th><th>Text</th><th>Checkable</th></tr></thead><tbody>
${catalogue}
</tbody></table>`,
    { scripts: search ? [search.script] : [] },
  );
}

const ruleTable = (caption: string, head: string[], rows: string[]) =>
  `<table>${caption}<thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
const levelCells = (r: Rule) => `<td class="${r.level}">${r.level}</td><td>${r.direction}</td>`;

/**
 * The gate's rule table, from the code: the written rules by the part of the document they read,
 * then the schema rules grouped by their kind of change, one row per place the kind sits, each
 * with its level, side of the wire, reason and the module that emits it.
 */
export function specDiffRulesPage(): string {
  const counts = LEVELS.map((l) => `${RULES.filter((r) => r.level === l).length} ${l}`).join(', ');
  const written = RULES.filter((r) => r.kind === undefined);
  const areas = [...new Set(written.map((r) => r.area))].map(
    (area) =>
      `<h3>${escape(area)}</h3>\n` +
      ruleTable(
        '',
        ['Rule', 'Level', 'Side', 'Why', 'Emitted by'],
        written
          .filter((r) => r.area === area)
          .map(
            (r) =>
              `<tr id="${r.id}"><td><code>${r.id}</code></td>${levelCells(r)}` +
              `<td>${escape(r.reason)}</td><td><code>${r.emitted}</code></td></tr>`,
          ),
      ),
  );
  const placed = RULES.filter((r) => r.kind !== undefined);
  const kinds = [...new Set(placed.map((r) => r.kind!))].map((kind) => {
    const rows = placed.filter((r) => r.kind === kind);
    const caption =
      `<caption id="kind-${kind}"><code>${kind}</code>: ${escape(rows[0]!.reason)} ` +
      `(emitted by <code>${rows[0]!.emitted}</code>)</caption>`;
    const cells = rows.map(
      (r) => `<tr id="${r.id}"><td><code>${r.id}</code></td><td>${r.place!}</td>${levelCells(r)}</tr>`,
    );
    // Folded: some 1,500 rows open at once are slow to read and to load; a link to one opens its kind.
    return `<details><summary><code>${kind}</code> (${rows.length})</summary>\n${ruleTable(caption, ['Rule', 'Where the schema sits', 'Level', 'Side'], cells)}\n</details>`;
  });
  return page(
    'The gate on contract changes: its rules',
    `<h1>The gate on contract changes: its rules</h1>
<p><code>npm run spec:diff</code> classifies every change between two versions of the contract by one of
these ${RULES.length} rules (${counts}). <b>error</b> breaks clients, <b>warning</b> may break them,
<b>info</b> is safe. Each rule names the module that emits it.</p>
<h2>Rules by the part of the document they read</h2>
${areas.join('\n')}
<h2>Schema rules, by kind of change</h2>
<p>A kind of change to a schema is one rule on each place a schema sits: narrowing what a request may
carry breaks clients, and so does widening what a response may contain; the opposite of each is safe.
A change no rule names is reported as a <code>keyword-changed</code> warning, never left out.</p>
${kinds.join('\n')}`,
  );
}

const page = (title: string, body: string) => docsPage(title, body, { scripts: [OPEN_TARGET] });
