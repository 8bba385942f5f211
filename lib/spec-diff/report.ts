import type { Judged } from './baseline.ts';
import { LEVELS, type Level } from './rules.ts';

/** One document compared: its file, and whether the base had it at all. */
export interface ComparedDocument {
  file: string;
  status: 'compared' | 'new' | 'removed';
  changes: Judged[];
}

export interface Summary {
  base: string;
  revision: string;
  failOn: Level;
  documents: ComparedDocument[];
  counts: Record<Level, number>;
  /** Changes at or above `failOn` that no baseline entry accepts. */
  failing: number;
  accepted: number;
}

const rank = (level: Level) => LEVELS.indexOf(level);
export const fails = (change: Judged, failOn: Level) =>
  !change.accepted && rank(change.level) <= rank(failOn);

export function summarise(
  base: string,
  revision: string,
  failOn: Level,
  documents: ComparedDocument[],
): Summary {
  const all = documents.flatMap((d) => d.changes);
  const counts = Object.fromEntries(
    LEVELS.map((l) => [l, all.filter((c) => c.level === l).length]),
  ) as Record<Level, number>;
  return {
    base,
    revision,
    failOn,
    documents,
    counts,
    failing: all.filter((c) => fails(c, failOn)).length,
    accepted: all.filter((c) => c.accepted).length,
  };
}

const TITLES: Record<Level, string> = {
  error: 'Breaks clients',
  warning: 'May break clients',
  info: 'Safe',
};
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Changes by level, then by operation (the document's own changes last), in table order. */
function grouped(summary: Summary) {
  return LEVELS.map((level) => {
    const scopes = new Map<string, Judged[]>();
    for (const doc of summary.documents)
      for (const change of doc.changes.filter((c) => c.level === level)) {
        const scope = change.operation ?? `${doc.file} (document)`;
        scopes.set(scope, [...(scopes.get(scope) ?? []), change]);
      }
    const documentLast = (scope: string) => Number(scope.endsWith('(document)'));
    const sorted = [...scopes].sort(([a], [b]) => documentLast(a) - documentLast(b) || a.localeCompare(b));
    return { level, scopes: sorted.map(([scope, changes]) => ({ scope, changes })) };
  }).filter((g) => g.scopes.length > 0);
}

const mark = (c: Judged) =>
  c.accepted
    ? ` [accepted until ${c.accepted.expires}: ${c.accepted.reason}]`
    : c.expired
      ? ` [acceptance expired ${c.expired.expires}]`
      : '';

export function verdictLine(s: Summary): string {
  const counts = LEVELS.filter((l) => s.counts[l] > 0).map((l) =>
    l === 'info' ? `${s.counts[l]} info` : plural(s.counts[l], l),
  );
  const total = LEVELS.reduce((n, l) => n + s.counts[l], 0);
  const verdict = s.failing
    ? `${plural(s.failing, 'change')} at or above ${s.failOn}: the gate fails.`
    : `Nothing at or above ${s.failOn}: the gate passes.`;
  const accepted = s.accepted ? ` ${s.accepted} accepted by the baseline.` : '';
  return `${plural(total, 'change')}${counts.length ? ` (${counts.join(', ')})` : ''}. ${verdict}${accepted}`;
}

export function renderText(s: Summary): string {
  const docs = s.documents.map(
    (d) => `${d.file}: ${d.status === 'compared' ? plural(d.changes.length, 'change') : d.status}`,
  );
  const out = [`${s.revision} against ${s.base}: ${docs.join(', ')}`];
  for (const group of grouped(s)) {
    out.push('', `${TITLES[group.level]} (${group.level}, ${s.counts[group.level]})`);
    for (const scope of group.scopes) {
      out.push(`  ${scope.scope}`);
      for (const c of scope.changes) out.push(`    ${c.text}  [${c.id}]${mark(c)}`);
    }
  }
  out.push('', verdictLine(s));
  return out.join('\n');
}

const cell = (value: string) => value.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderMarkdown(s: Summary): string {
  const head = s.failing ? '❌' : '✅';
  const out = [`## ${head} Contract changes: ${s.revision} against \`${s.base}\``, '', verdictLine(s)];
  const added = s.documents.filter((d) => d.status !== 'compared');
  if (added.length) out.push('', added.map((d) => `\`${d.file}\`: ${d.status} document.`).join(' '));
  for (const group of grouped(s)) {
    const table = ['| Operation | Change | Rule | Where |', '| --- | --- | --- | --- |'];
    for (const scope of group.scopes)
      scope.changes.forEach((c, i) =>
        table.push(
          `| ${i === 0 ? cell(scope.scope) : ''} | ${cell(c.text + mark(c))} | ` +
            `\`${c.id}\` | \`${cell(c.pointer || '/')}\` |`,
        ),
      );
    const title = `${TITLES[group.level]} (${group.level}, ${s.counts[group.level]})`;
    // What breaks clients stays open; the rest folds away so a long list does not bury it.
    if (group.level === 'error') out.push('', `### ${title}`, '', ...table);
    else out.push('', '<details>', `<summary>${title}</summary>`, '', ...table, '', '</details>');
  }
  return `${out.join('\n')}\n`;
}

/** The summary, and every change in one flat list too (with its document), for tools that want one. */
export function renderJson(s: Summary): string {
  const changes = s.documents.flatMap((d) => d.changes.map((c) => ({ document: d.file, ...c })));
  return `${JSON.stringify({ ...s, changes }, null, 2)}\n`;
}

/** Escapes of a workflow command's data and properties (GitHub's own rules). */
const data = (v: string) => v.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const property = (v: string) => data(v).replaceAll(':', '%3A').replaceAll(',', '%2C');
const COMMAND: Record<Level, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** GitHub workflow commands: one annotation per change, at its line in the revision's file. */
export function renderGithub(s: Summary, where: (c: Judged) => { file?: string; line?: number }): string {
  const lines: string[] = [];
  for (const doc of s.documents)
    for (const c of doc.changes) {
      const at = where(c);
      const props = [
        at.file ? `file=${property(at.file)}` : '',
        at.line ? `line=${at.line}` : '',
        `title=${property(`${c.id}${c.operation ? ` (${c.operation})` : ''}`)}`,
      ].filter(Boolean);
      const level = c.accepted ? 'notice' : COMMAND[c.level];
      lines.push(`::${level} ${props.join(',')}::${data(`${c.text}${mark(c)}`)}`);
    }
  lines.push(verdictLine(s));
  return `${lines.join('\n')}\n`;
}
