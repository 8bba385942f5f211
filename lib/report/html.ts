/**
 * The one shell of every HTML page the suite writes (the conformance report, the trend, the
 * documentation index and the gate's rules, the conformance diff): doctype, head, the shared style
 * sheet and the copy button's script. A page brings only its title, its body and its own style.
 * The pages are opened from disk or a plain folder: they load nothing from anywhere.
 */
import { createHash } from 'node:crypto';

/** Text made safe for HTML, in an element or in a quoted attribute. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Text inlined in a `<style>` or `<script>` element, which must not close that element. */
export const inlineText = (text: string, tag: 'style' | 'script') =>
  text.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);

/** A table row of cells already HTML: data cells, or header cells. */
export const htmlRow = (cells: (string | number)[], tag: 'td' | 'th' = 'td') =>
  `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;

/** A block of text a reader copies with one click (the button falls back to selecting it). */
export const copyable = (text: string) =>
  `<div class="copy"><pre><code>${escapeHtml(text)}</code></pre>` +
  `<button type="button" data-copy="${escapeHtml(text)}">Copy</button></div>`;

/**
 * Inline style, and only the page's own scripts, by their hashes: nothing from outside (not even
 * the icon the browser asks for), and no script a page did not bring, even one injected into it.
 */
const policy = (scripts: string[]) => {
  const allowed = scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`);
  return `default-src 'none'; style-src 'unsafe-inline'; script-src ${allowed.join(' ') || "'none'"}; img-src data:`;
};

const SHARED_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:90em;color:#1b1b1b}
table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
code{background:#f6f8fa;padding:0 .2em}
pre{background:#f6f8fa;padding:.5em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.muted{color:#57606a}
.copy{display:flex;gap:.5em;align-items:flex-start}.copy pre{flex:1;margin:0}`;

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

export interface HtmlPage {
  title: string;
  /** The page's body, already HTML. */
  body: string;
  /** Style sheets of the page's own, after the shared one (as text, inlined). */
  styles?: string[];
  /** Scripts run after the body, in order (as text, inlined), after the copy button's script. */
  scripts?: string[];
}

export function htmlPage(page: HtmlPage): string {
  const styles = [SHARED_STYLE, ...(page.styles ?? [])];
  // The copy button's script, on the pages that have one.
  const copy = page.body.includes('data-copy=') ? [COPY_SCRIPT] : [];
  const scripts = [...copy, ...(page.scripts ?? [])].map((s) => inlineText(s, 'script'));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy(scripts)}">
<link rel="icon" href="data:,">
<title>${escapeHtml(page.title)}</title>
${styles.map((s) => `<style>${inlineText(s, 'style')}</style>`).join('\n')}
</head>
<body>
${page.body}
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}
