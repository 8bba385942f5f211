import type { Judged } from '../spec-diff/baseline.ts';
import { escapeHtml as escape } from '../report/html.ts';
import { byOperation, changesOf, countsOf, type Changelog, type ChangelogEntry } from './changelog.ts';
import { sunsetText, type Deprecation } from './deprecations.ts';
import { docsPage, OPEN_TARGET, ruleHref, SPEC_DIFF_RULES } from './links.ts';

/** What the changelog's pages need besides the changelog: the rules and deprecations of today's contract. */
export interface ChangelogContext {
  /** The conformance rules each operation carries, by operationId. */
  rulesOf: (operationId: string) => string[];
  deprecations: Deprecation[];
}

/** A version with more changes than this shows them folded: the page stays quick to read and to load. */
const FOLD = 25;
const LEVEL_WORDS = { error: 'breaks clients', warning: 'may break clients', info: 'safe' } as const;
const short = (sha: string) => sha.slice(0, 12);
const day = (iso: string) => iso.slice(0, 10);
export const entryId = (e: ChangelogEntry) => `v-${short(e.sha)}`;
const operationIdOf = (label: string | undefined) => label?.split(' ')[0] ?? '';

/** How far back the history reaches, in one sentence. */
export function reachText(log: Changelog): string {
  const { reach } = log;
  if (!reach.git)
    return `No git history here (${reach.error ?? 'not a git repository'}): the changelog is empty.`;
  if (reach.error) return `The git history could not be read (${reach.error}): the changelog is empty.`;
  if (!reach.oldest) return 'No commit of this history changed openapi/.';
  return reach.shallow
    ? `This clone is shallow: the changelog reaches back to ${day(reach.oldest)} only. ` +
        'Fetch the whole history (git fetch --unshallow) for the versions before it.'
    : `The whole history of openapi/, from its first version on ${day(reach.oldest)}: ` +
        `${log.entries.length} versions.`;
}

/** An entry's changes in a few words: counts by level, or why it has none. */
export function summaryText(log: Changelog, e: ChangelogEntry): string {
  const notes = e.documents.flatMap((d) =>
    d.status === 'compared' || d.status === 'absent' || d.status === 'first'
      ? []
      : [`${d.file} ${d.status}${d.error ? ` (${d.error})` : ''}`],
  );
  if (e.previous === null)
    return log.reach.shallow
      ? 'The oldest version this clone holds: what changed before it is not in the clone.'
      : 'The contract’s first version.';
  const c = countsOf(changesOf(e));
  const total = c.error + c.warning + c.info;
  const counted = total
    ? `${total} change(s): ${c.error} breaking, ${c.warning} that may break, ${c.info} safe`
    : 'No change the gate reads (descriptions, examples or layout only)';
  return [counted, ...notes].join('; ') + '.';
}

const acceptance = (c: Judged) =>
  c.accepted
    ? `accepted by the baseline until ${c.accepted.expires}: ${c.accepted.reason}`
    : c.expired
      ? `accepted by the baseline until ${c.expired.expires} (expired): ${c.expired.reason}`
      : '';

/** The deprecation a change touches, when its operation is deprecated now. */
const deprecationOf = (ctx: ChangelogContext, c: Judged) =>
  /deprecat|sunset/.test(c.id)
    ? ctx.deprecations.find((d) => d.operation === operationIdOf(c.operation))
    : undefined;

function changeHtml(ctx: ChangelogContext, c: Judged): string {
  const accepted = acceptance(c);
  const dep = deprecationOf(ctx, c);
  return (
    `<li class="${c.level}"><b class="${c.level}">${LEVEL_WORDS[c.level]}</b> ${escape(c.text)} ` +
    `<a href="${SPEC_DIFF_RULES}#${c.id}"><code>${c.id}</code></a>` +
    (accepted ? ` <i class="accepted">${escape(accepted)}</i>` : '') +
    (dep ? ` <span class="sunset">${escape(sunsetText(dep))}</span>` : '') +
    '</li>'
  );
}

function entryHtml(log: Changelog, ctx: ChangelogContext, e: ChangelogEntry): string {
  const groups = byOperation(changesOf(e)).map(({ operation, changes }) => {
    const rules = operation ? ctx.rulesOf(operationIdOf(operation)) : [];
    const links = rules.map((id) => `<a href="${ruleHref(id)}">${id}</a>`).join(' ');
    return (
      `<h4><code>${escape(operation ?? 'the document')}</code>` +
      `${links ? ` <span class="muted">rules: ${links}</span>` : ''}</h4>\n` +
      `<ul>${changes.map((c) => changeHtml(ctx, c)).join('\n')}</ul>`
    );
  });
  const tags = e.tags.length ? ` · tag ${e.tags.map(escape).join(', ')}` : '';
  return `<section id="${entryId(e)}" aria-labelledby="${entryId(e)}-h">
<h3 id="${entryId(e)}-h">${day(e.date)} · version ${escape(e.version ?? 'unknown')}${tags}</h3>
<p class="muted">Commit <code>${short(e.sha)}</code>: ${escape(e.subject)}</p>
<p>${escape(summaryText(log, e))}</p>
${groups.length ? `<details${changesOf(e).length <= FOLD ? ' open' : ''}><summary>The changes, by operation</summary>\n${groups.join('\n')}\n</details>` : ''}
</section>`;
}

function deprecationsHtml(ctx: ChangelogContext, today: string): string {
  if (!ctx.deprecations.length) return '<p>Nothing is deprecated.</p>';
  const rows = ctx.deprecations.map(
    (d) =>
      `<tr><td><code>${escape(d.route)}</code> (${d.operation})</td><td>${escape(d.parameter ?? 'the operation')}</td>` +
      `<td>${escape(sunsetText(d))}</td></tr>`,
  );
  return `<table><caption>As of ${today}</caption><thead><tr><th>Operation</th><th>Deprecated</th><th>Sunset</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

export function changelogHtml(log: Changelog, ctx: ChangelogContext): string {
  const body = `<h1>Changelog of the contract</h1>
<p>Every commit that changed <code>openapi/</code>, newest first: its date, the contract’s version
(<code>info.version</code>) and what the breaking-change gate finds changed since the version
before, by operation, breaking changes first. Each change links to its rule in
<a href="${SPEC_DIFF_RULES}">the gate’s rule table</a>; each operation to its conformance rules.
${log.baseline ? `Changes accepted in <code>${escape(log.baseline)}</code> say so, with the reason.` : 'The repository has no baseline of accepted changes.'}
Also as <a href="changelog.md">Markdown</a>, <a href="changelog.json">JSON</a> and an <a href="changelog.atom">Atom feed</a>.</p>
<p class="reach">${escape(reachText(log))}</p>
<h2>Deprecated, and when it goes</h2>
${deprecationsHtml(ctx, log.today)}
<h2>Versions</h2>
${log.entries.map((e) => entryHtml(log, ctx, e)).join('\n')}`;
  return docsPage('Changelog of the contract', body, {
    scripts: [OPEN_TARGET],
    styles: [
      'li.error{list-style:square}.accepted{color:#57606a}.sunset{color:#9a6700}h4{margin:.8em 0 .2em}',
    ],
  });
}

const mdChange = (c: Judged) => {
  const extra = acceptance(c);
  return `- ${c.level === 'error' ? '**breaks clients**' : LEVEL_WORDS[c.level]}: ${c.text} (\`${c.id}\`)${extra ? `, ${extra}` : ''}`;
};

export function changelogMarkdown(log: Changelog, ctx: ChangelogContext): string {
  const lines = [
    '# Changelog of the contract',
    '',
    reachText(log),
    '',
    '## Deprecated, and when it goes',
    '',
  ];
  for (const d of ctx.deprecations)
    lines.push(`- \`${d.route}\` ${d.parameter ? `parameter \`${d.parameter}\`` : ''}: ${sunsetText(d)}`);
  if (!ctx.deprecations.length) lines.push('Nothing is deprecated.');
  for (const e of log.entries) {
    lines.push(
      '',
      `## ${day(e.date)}: version ${e.version ?? 'unknown'}${e.tags.length ? ` (${e.tags.join(', ')})` : ''}`,
      '',
    );
    lines.push(`Commit \`${short(e.sha)}\`: ${e.subject}`, '', summaryText(log, e));
    for (const { operation, changes } of byOperation(changesOf(e)))
      lines.push('', `### ${operation ?? 'the document'}`, '', ...changes.map(mdChange));
  }
  return `${lines.join('\n')}\n`;
}

const xml = (s: string) => escape(s).replace(/'/g, '&apos;');

/** An Atom feed (RFC 4287): one entry per version, newest first, its changes as HTML. */
export function changelogAtom(log: Changelog, ctx: ChangelogContext, base = ''): string {
  const updated = log.entries[0]?.date ?? `${log.today}T00:00:00Z`;
  const entries = log.entries.map((e) => {
    const c = countsOf(changesOf(e));
    const content = byOperation(changesOf(e))
      .map(
        ({ operation, changes }) =>
          `<h4>${escape(operation ?? 'the document')}</h4><ul>${changes.map((x) => changeHtml(ctx, x)).join('')}</ul>`,
      )
      .join('');
    return `<entry>
<id>urn:clm-contract:${e.sha}</id>
<title>${xml(`${day(e.date)} version ${e.version ?? 'unknown'}: ${c.error} breaking, ${c.warning} may break, ${c.info} safe`)}</title>
<updated>${e.date}</updated>
<link href="${xml(`${base}changelog.html#${entryId(e)}`)}"/>
<summary>${xml(summaryText(log, e))}</summary>
<content type="html">${xml(`<p>${escape(e.subject)}</p>${content}`)}</content>
</entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>urn:clm-contract:changelog</id>
<title>Changelog of the Content, Licence and Membership API contract</title>
<updated>${updated}</updated>
<author><name>Content, Licence and Membership API</name></author>
<link rel="alternate" href="${xml(`${base}changelog.html`)}"/>
${entries.join('\n')}
</feed>
`;
}
