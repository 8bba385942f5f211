import type { ProductionRow } from '../explore/productions.ts';
import { escapeHtml as escape, htmlRow as row } from './html.ts';
import type { ConformanceReport } from './model.ts';

/**
 * The grammars' productions a run drew, a table per grammar: each production with the operations
 * whose requests carried it, or why none did (the module's decision, cases left out, or no
 * operation it applies to). Markdown for `conformance.md`, HTML for the conformance page.
 */

export const PRODUCTIONS_NOTE =
  'Each request of the exploration is drawn from grammars (RFC 9110 fields, RFC 9112 framing, RFC 3986 ' +
  'URIs, RFC 8259 JSON, the contract): every production once per run, several in one request where they ' +
  'write different parts of it. A production never drawn says why.';

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

function byGrammar(rows: readonly ProductionRow[]): [string, ProductionRow[]][] {
  const out = new Map<string, ProductionRow[]>();
  for (const r of rows) out.set(r.grammar, [...(out.get(r.grammar) ?? []), r]);
  return [...out];
}

const drawnText = (r: ProductionRow) =>
  r.drawn.length === 0 ? 'never' : `${r.drawn.length} operation(s): ${r.drawn.join(', ')}`;

const counts = (rows: readonly ProductionRow[]) => {
  const drawn = rows.filter((r) => r.drawn.length > 0).length;
  return `${drawn} of ${rows.length} drawn`;
};

export function productionLines(report: ConformanceReport): string[] {
  const rows = report.productions;
  if (!rows || rows.length === 0) return [];
  return [
    `## Productions drawn (${counts(rows)})`,
    '',
    PRODUCTIONS_NOTE,
    '',
    ...byGrammar(rows).flatMap(([grammar, list]) => [
      `### ${grammar} (${counts(list)})`,
      '',
      '| Production | What it writes | Drawn by | Never drawn because |',
      '|---|---|---|---|',
      ...list.map(
        (r) =>
          `| \`${r.production}\` | ${cell(r.summary)} | ${cell(drawnText(r))} | ${cell(r.never ?? '')} |`,
      ),
      '',
    ]),
  ];
}

export function productionHtml(report: ConformanceReport): string {
  const rows = report.productions;
  if (!rows || rows.length === 0) return '';
  const head = row(['Production', 'What it writes', 'Drawn by', 'Never drawn because'], 'th');
  const tables = byGrammar(rows).map(
    ([grammar, list]) => `<h3>${escape(grammar)} (${counts(list)})</h3>
<table><thead>${head}</thead><tbody>
${list.map((r) => row([`<code>${escape(r.production)}</code>`, escape(r.summary), escape(drawnText(r)), escape(r.never ?? '')])).join('\n')}
</tbody></table>`,
  );
  return `<h2>Productions drawn (${counts(rows)})</h2><p class="muted">${escape(PRODUCTIONS_NOTE)}</p>
${tables.join('\n')}`;
}
