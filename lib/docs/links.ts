import { htmlPage } from '../report/html.ts';

/** The pages of the published documentation, by file name below `<reports>/docs/`. */
export const SPEC_DIFF_RULES = 'spec-diff-rules.html';
export const CHANGELOG = 'changelog';
export const RULES_FOLDER = 'rules';

/** A rule's page, from a page at the top of the docs (`up` = '../' from a rule page). */
export const ruleHref = (id: string, up = '') => `${up}${RULES_FOLDER}/${id}.html`;

const STYLE = `body{font-size:15px;max-width:80em}table{margin-bottom:2em}caption{text-align:left}
nav.docs{margin-bottom:1em}nav.docs a{margin-right:1em}
.rule{white-space:nowrap;margin-right:.6em}
.pass{color:#1a7f37}.fail,.error{color:#cf222e}.skipped,.warning{color:#9a6700}
.not-covered,.info{color:#57606a}.blocked{color:#8250df}.not-run,.incomplete{color:#bc4c00}
.strip{display:inline-flex;gap:2px;vertical-align:middle}
.strip i{display:inline-block;width:8px;height:14px;background:#8c959f}
.strip i.pass{background:#1a7f37}.strip i.fail{background:#cf222e}.strip i.incomplete,.strip i.not-run{background:#bc4c00}
.strip i.blocked{background:#8250df}.strip i.skipped{background:#9a6700}`;

/** Opens the folded section that holds the element a link's fragment names. */
export const OPEN_TARGET = `const open = () => {
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  for (let d = target && target.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
  if (target) target.scrollIntoView();
};
addEventListener('hashchange', open);
open();`;

/**
 * A page of the published docs: the shared shell (its content policy allows only the page's own
 * inline scripts), the docs' navigation and style. `up` reaches the docs' top from a page below it.
 */
export function docsPage(
  title: string,
  body: string,
  options: { up?: string; styles?: string[]; scripts?: string[] } = {},
): string {
  const up = options.up ?? '';
  const nav = `<nav class="docs" aria-label="Documentation"><a href="${up}index.html">Index</a>
<a href="${up}${CHANGELOG}.html">Changelog</a><a href="${up}${SPEC_DIFF_RULES}">The gate’s rules</a>
<a href="${up}main.html">Main API</a><a href="${up}images.html">Image service</a></nav>`;
  return htmlPage({
    title,
    body: `${nav}\n<main>\n${body}\n</main>`,
    styles: [STYLE, ...(options.styles ?? [])],
    scripts: options.scripts ?? [],
  });
}
