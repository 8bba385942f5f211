import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine, usageError } from '../lib/cli.ts';
import {
  contractChanges,
  groupChanges,
  KINDS,
  type ChangeKind,
  type ContractChange,
  type KindGroup,
} from '../lib/contract/diff.ts';
import { DOCUMENTS, loadDocument, type DocumentName } from '../lib/contract/index.ts';

const USAGE = `Usage: npm run spec:diff -- [options] [git-ref]

  Compares the contract now with the contract at a git ref (default: the merge base with main)
  and prints the changes by severity, breaking first, then by operation.

  --markdown FILE   also write the summary as Markdown, for a pull-request comment
  --json FILE       also write the grouped changes as JSON
  -h, --help        this text

  Exit code: 1 when a change breaks clients, 0 when none does, 2 on a bad argument or ref.`;

const { values, positionals } = commandLine(
  USAGE,
  { markdown: { type: 'string' }, json: { type: 'string' } },
  { positionals: 1 },
);

const git = (...args: string[]) =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function defaultRef(): string {
  for (const main of ['main', 'origin/main']) {
    try {
      return git('merge-base', 'HEAD', main);
    } catch {
      // Try the next name of main.
    }
  }
  usageError(
    USAGE,
    'spec:diff: no branch main to compare with: name a git ref, e.g. npm run spec:diff -- HEAD~1',
  );
}

const ref = positionals[0] ?? defaultRef();
try {
  git('rev-parse', '--verify', `${ref}^{commit}`);
} catch {
  usageError(USAGE, `spec:diff: "${ref}" is not a git ref of this repository`);
}

const TITLES: Record<ChangeKind, string> = {
  breaking: 'Breaking',
  deprecated: 'Deprecated',
  'non-breaking': 'Non-breaking',
  unclassified: 'Unclassified',
  annotation: 'Annotation',
};

interface Summary {
  ref: string;
  documents: { file: string; status: 'compared' | 'new'; changes: number }[];
  counts: Record<ChangeKind, number>;
  total: number;
  breaking: boolean;
  groups: KindGroup[];
}

async function compare(): Promise<Summary> {
  const then = mkdtempSync(join(tmpdir(), 'clm-spec-diff-'));
  if (git('ls-tree', '--name-only', ref, 'openapi/') !== '')
    execFileSync('sh', [
      '-c',
      `git archive ${JSON.stringify(ref)} openapi | tar -x -C ${JSON.stringify(then)}`,
    ]);
  const documents: Summary['documents'] = [];
  const changes: ContractChange[] = [];
  for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
    const file = DOCUMENTS[name];
    const before = join(then, file);
    if (!existsSync(before)) {
      documents.push({ file, status: 'new', changes: 0 });
      continue;
    }
    const found = contractChanges(await loadDocument(name, before), await loadDocument(name), file);
    documents.push({ file, status: 'compared', changes: found.length });
    changes.push(...found);
  }
  const counts = Object.fromEntries(
    KINDS.map((kind) => [kind, changes.filter((c) => c.kind === kind).length]),
  ) as Record<ChangeKind, number>;
  return {
    ref,
    documents,
    counts,
    total: changes.length,
    breaking: counts.breaking > 0,
    groups: groupChanges(changes),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const times = (count: number) => (count > 1 ? ` (×${count})` : '');
const countsText = (s: Summary) =>
  KINDS.filter((k) => s.counts[k] > 0)
    .map((k) => `${s.counts[k]} ${k}`)
    .join(', ');
const shortRef = (s: Summary) => (/^[0-9a-f]{40}$/.test(s.ref) ? s.ref.slice(0, 12) : s.ref);

function finalLine(s: Summary): string {
  const verdict = s.breaking
    ? `${plural(s.counts.breaking, 'breaking change')} for clients.`
    : 'No breaking change for clients.';
  return `${plural(s.total, 'change')}${s.total ? ` (${countsText(s)})` : ''}. ${verdict}`;
}

function text(s: Summary): string {
  const out = [
    `Contract now against ${shortRef(s)}: ${s.documents.map((d) => `${d.file} ${d.status === 'new' ? 'new document' : plural(d.changes, 'change')}`).join(', ')}`,
  ];
  for (const group of s.groups) {
    out.push('', `${TITLES[group.kind]} (${group.count})`);
    for (const scope of group.scopes) {
      out.push(`  ${scope.scope}`);
      for (const line of scope.changes) out.push(`    ${line.text}${times(line.count)}`);
    }
  }
  out.push('', finalLine(s));
  return out.join('\n');
}

/** Table cells: code spans keep their backticks; a pipe would end the cell. */
const cell = (value: string) => value.replaceAll('|', '\\|').replaceAll('\n', ' ');

function markdown(s: Summary): string {
  const head = s.breaking ? '⚠️ ' : '';
  const out = [
    `## ${head}Contract changes against \`${shortRef(s)}\`: ${s.total ? countsText(s) : 'none'}`,
    '',
    finalLine(s),
  ];
  const added = s.documents.filter((d) => d.status === 'new');
  if (added.length) out.push('', `New documents: ${added.map((d) => `\`${d.file}\``).join(', ')}.`);
  for (const group of s.groups) {
    const table = ['| Operation | Change |', '| --- | --- |'];
    for (const scope of group.scopes) {
      const op = scope.operation;
      const label = op
        ? `${op.operationId ? `\`${op.operationId}\` ` : ''}${op.method} \`${op.path}\``
        : `\`${scope.scope}\``;
      // The operation on its first row only: the rows below it read as its changes.
      scope.changes.forEach((line, i) =>
        table.push(`| ${i === 0 ? cell(label) : ''} | ${cell(`${line.text}${times(line.count)}`)} |`),
      );
    }
    const title = `${TITLES[group.kind]} (${group.count})`;
    // What breaks clients stays open; the rest folds away so a long list does not bury it.
    if (group.kind === 'breaking' || group.kind === 'deprecated') out.push('', `### ${title}`, '', ...table);
    else out.push('', '<details>', `<summary>${title}</summary>`, '', ...table, '', '</details>');
  }
  return `${out.join('\n')}\n`;
}

let summary: Summary;
try {
  summary = await compare();
} catch (error) {
  // Not a verdict on the change: the comparison itself could not be made.
  console.error(`spec:diff: ${(error as Error).message}`);
  process.exit(2);
}
console.log(text(summary));
if (values.markdown) writeFileSync(values.markdown, markdown(summary));
if (values.json) writeFileSync(values.json, `${JSON.stringify(summary, null, 2)}\n`);
process.exitCode = summary.breaking ? 1 : 0;
