import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractChanges } from '../lib/contract/diff.ts';
import { DOCUMENTS, loadDocument, type DocumentName } from '../lib/contract/index.ts';

/**
 * `npm run spec:diff -- [git-ref]`: the contract now against the contract at a git ref (by default
 * the merge base with main), each change classified; exits 1 on a change that breaks clients.
 */
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
  throw new Error('No branch main to compare with: name a git ref, e.g. npm run spec:diff -- HEAD~1');
}

const ref = process.argv[2] ?? defaultRef();
try {
  git('rev-parse', '--verify', `${ref}^{commit}`);
} catch {
  console.error(`spec:diff: "${ref}" is not a git ref of this repository`);
  process.exit(2);
}

const then = mkdtempSync(join(tmpdir(), 'clm-spec-diff-'));
const hasContract = git('ls-tree', '--name-only', ref, 'openapi/') !== '';
if (hasContract)
  execFileSync('sh', [
    '-c',
    `git archive ${JSON.stringify(ref)} openapi | tar -x -C ${JSON.stringify(then)}`,
  ]);

let breaking = 0;
for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
  const before = join(then, DOCUMENTS[name]);
  const now = await loadDocument(name);
  const changes = existsSync(before) ? contractChanges(await loadDocument(name, before), now) : [];
  console.log(
    `\n${DOCUMENTS[name]} against ${ref.slice(0, 12)}: ${existsSync(before) ? `${changes.length} change(s)` : 'new document'}`,
  );
  for (const change of changes)
    console.log(`  ${change.kind.padEnd(12)} ${change.description}\n               at ${change.where}`);
  breaking += changes.filter((c) => c.kind === 'breaking').length;
}
console.log(breaking ? `\n${breaking} breaking change(s) for clients.` : '\nNo breaking change for clients.');
process.exitCode = breaking ? 1 : 0;
