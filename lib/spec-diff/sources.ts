import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { SpecDocument } from './document.ts';
import { scratchFolder } from '../scratch.ts';

/** One side of a comparison: the working tree, a git ref, or files named on the command line. */
export interface Side {
  /** How the side is shown: a file name, a short commit, "the working tree". */
  label: string;
  /** The folder documents are read from: the working tree, or a copy of the ref's tree. */
  root: string;
  /** Whether files were named: then the other side reads the same files. */
  files?: string[];
}

const git = (...args: string[]) =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export function repositoryRoot(): string | undefined {
  try {
    return git('rev-parse', '--show-toplevel');
  } catch {
    return undefined;
  }
}

export function isRef(ref: string): boolean {
  try {
    git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`);
    return true;
  } catch {
    return false;
  }
}

/** The merge base of HEAD with main (or origin/main): what a pull request is compared with. */
export function mergeBase(): string | undefined {
  for (const main of ['origin/main', 'main']) {
    try {
      return git('merge-base', 'HEAD', main);
    } catch {
      // Try the next name of main.
    }
  }
  return undefined;
}

/**
 * A command-line argument as a side: an existing file, or a git ref. A ref is read from a copy of
 * its tree (the folders of the documents compared, so their external `$ref`s resolve).
 */
export function side(arg: string | undefined, cwd = process.cwd()): Side {
  if (arg === undefined) return { label: 'the working tree', root: repositoryRoot() ?? cwd };
  if (existsSync(arg) && statSync(arg).isFile()) {
    const file = resolve(cwd, arg);
    return { label: relative(cwd, file) || file, root: dirname(file), files: [file] };
  }
  if (!isRef(arg)) throw new UsageError(`"${arg}" is neither a file nor a git ref of this repository`);
  const sha = git('rev-parse', `${arg}^{commit}`);
  return { label: /^[0-9a-f]{40}$/.test(arg) ? arg.slice(0, 12) : `${arg} (${sha.slice(0, 12)})`, root: sha };
}

export class UsageError extends Error {}

/** The documents of a side, at paths relative to the repository (or absolute, for loose files). */
export function readSide(s: Side, paths: string[]): Map<string, SpecDocument | undefined> {
  const out = new Map<string, SpecDocument | undefined>();
  if (s.files) {
    for (const file of s.files) out.set(file, SpecDocument.fromFile(file));
    return out;
  }
  if (existsSync(s.root)) {
    for (const path of paths) {
      const file = resolve(s.root, path);
      out.set(path, existsSync(file) ? SpecDocument.fromFile(file) : undefined);
    }
    return out;
  }
  // A commit: copy the folders the documents live in out of it, once.
  // Removed when the process ends, not before: a `$ref` into another file is read when followed.
  const copy = scratchFolder('spec-diff');
  const top = repositoryRoot() ?? process.cwd();
  const folders = [...new Set(paths.map((p) => relative(top, dirname(resolve(top, p))) || '.'))];
  for (const folder of folders) {
    if (git('ls-tree', '--name-only', s.root, `${folder}/`) === '' && folder !== '.') continue;
    execFileSync('sh', ['-c', `git archive "$1" -- "$2" | tar -x -C "$3"`, 'sh', s.root, folder, copy], {
      cwd: top,
    });
  }
  for (const path of paths) {
    const file = join(copy, relative(top, resolve(top, path)));
    out.set(path, existsSync(file) ? SpecDocument.fromFile(file) : undefined);
  }
  return out;
}
