/** One thing the search finds: an operation, a rule or a version's changes to one operation. */
export interface SearchItem {
  kind: 'operation' | 'rule' | 'change';
  title: string;
  /** What the search reads besides the title. */
  text: string;
  href: string;
}

// A few lines, run in the page: every word typed must appear in an item's title or text.
const SCRIPT = `const items = JSON.parse(document.getElementById('search-index').textContent);
const input = document.getElementById('search');
const list = document.getElementById('search-results');
const status = document.getElementById('search-status');
input.addEventListener('input', () => {
  const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
  list.replaceChildren();
  if (!words.length) { status.textContent = ''; return; }
  const found = items.filter((i) => words.every((w) => (i.title + ' ' + i.text).toLowerCase().includes(w)));
  for (const i of found.slice(0, 30)) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = i.href;
    a.textContent = i.title;
    li.append(i.kind + ': ', a);
    list.append(li);
  }
  status.textContent = found.length + ' found' + (found.length > 30 ? ', the first 30 shown' : '');
});`;

/**
 * The search box: the index of what it finds embedded as JSON (a data block, which the content
 * policy does not run) and the script that reads it, all in the page, so it works offline.
 */
export function searchHtml(items: SearchItem[]): { html: string; script: string } {
  const data = JSON.stringify(items).replace(/</g, '\\u003c');
  const html = `<search>
<h2 id="search-heading">Search</h2>
<label for="search">Operations, rules and changes containing:</label>
<input id="search" type="search" autocomplete="off">
<p id="search-status" role="status" class="muted"></p>
<ul id="search-results" aria-labelledby="search-heading"></ul>
<script type="application/json" id="search-index">${data}</script>
</search>`;
  return { html, script: SCRIPT };
}

/** Text made one short line for the index. */
export const clip = (text: string, max = 300) => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};
