import { execFileSync } from 'node:child_process';

/** A commit that changed the contract's folder, as `git log` tells it. */
export interface ContractCommit {
  sha: string;
  /** The commit's date, ISO 8601. */
  date: string;
  subject: string;
  tags: string[];
}

/** How far back the history reaches: a shallow clone holds only its newest commits. */
export interface Reach {
  /** No git repository (an unpacked package, say): no history at all. */
  git: boolean;
  shallow: boolean;
  /** Why the history could not be read, when it could not. */
  error?: string;
}

const SEPARATOR = '\u001f';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });

/** Whether `cwd` is inside a git work tree, and whether its history is shallow. */
export function reachOf(cwd: string): Reach {
  try {
    const shallow = git(cwd, 'rev-parse', '--is-shallow-repository').trim() === 'true';
    return { git: true, shallow };
  } catch (error) {
    return { git: false, shallow: false, error: firstLine(error) };
  }
}

/**
 * The commits that changed `folder`, newest first, each with the tags that point at it. Merges
 * are left out: a merge that changed the folder shows as the commits it brought.
 */
export function contractCommits(cwd: string, folder: string): ContractCommit[] {
  const text = git(
    cwd,
    'log',
    '--no-merges',
    `--format=%H${SEPARATOR}%cI${SEPARATOR}%s${SEPARATOR}%D`,
    '--',
    folder,
  );
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [sha = '', date = '', subject = '', refs = ''] = line.split(SEPARATOR);
      const tags = refs
        .split(', ')
        .filter((r) => r.startsWith('tag: '))
        .map((r) => r.slice('tag: '.length));
      return { sha, date, subject, tags };
    });
}

/** The commit `HEAD` stands for, or none outside a repository. */
export function headCommit(cwd: string): string | undefined {
  try {
    return git(cwd, 'rev-parse', 'HEAD').trim();
  } catch {
    return undefined;
  }
}

export const firstLine = (error: unknown) =>
  String((error as { stderr?: string }).stderr || (error as Error).message || error)
    .trim()
    .split('\n')[0]!;
