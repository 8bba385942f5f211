import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENTS } from '../contract/index.ts';
import { projectPath } from '../paths.ts';
import { judge, type Accepted, type Judged } from '../spec-diff/baseline.ts';
import { compareContracts, LEVELS, type Change, type Level } from '../spec-diff/index.ts';
import { readSide } from '../spec-diff/sources.ts';
import { contractCommits, firstLine, reachOf, type ContractCommit, type Reach } from './git-history.ts';

/** What became of one document of the contract between two versions. */
export interface DocumentChanges<C extends Change = Change> {
  file: string;
  /** `first`: the oldest version the history holds, compared with nothing. */
  status: 'compared' | 'added' | 'removed' | 'absent' | 'unreadable' | 'first';
  changes: C[];
  error?: string;
}

/** One version of the contract: a commit that changed it, and the gate's changes since the one before. */
export interface ChangelogEntry extends ContractCommit {
  /** `info.version` of the main document at that commit. */
  version: string | null;
  /** The commit it is compared with; none for the oldest version the history holds. */
  previous: string | null;
  documents: DocumentChanges<Judged>[];
}

export interface Changelog {
  /** The build's date (YYYY-MM-DD): days left to a sunset and baseline expiries count from it. */
  today: string;
  reach: Reach & { oldest?: string };
  /** The baseline file whose accepted changes are marked, when the repository has one. */
  baseline?: string;
  entries: ChangelogEntry[];
  /** Comparisons read from the cache and made afresh. */
  cache: { hits: number; made: number };
}

/** The baseline file the pull-request workflow passes to the gate, when the repository has one. */
export const BASELINE_FILE = 'spec-diff-baseline.yaml';
const FOLDER = 'openapi';
const DEFAULT_CACHE = projectPath('node_modules/.cache/clm-changelog');

/**
 * A hash of the gate's own code (the modules of lib/spec-diff; its folders hold tools around
 * it): a cached comparison holds only while the gate is the same.
 */
function gateHash(): string {
  const hash = createHash('sha256');
  const dir = projectPath('lib/spec-diff');
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (statSync(file).isFile()) hash.update(name).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

interface Compared {
  version: string | null;
  documents: DocumentChanges[];
}

type Documents = ReturnType<typeof readSide>;

/** The documents at a commit compared with those at the one before (none: the oldest version). */
function compare(previous: string | null, sha: string, read: (sha: string) => Documents): Compared {
  const paths = Object.values(DOCUMENTS);
  const rev = read(sha);
  const base = previous ? read(previous) : undefined;
  const info = rev.get(DOCUMENTS.main)?.root.info as { version?: unknown } | undefined;
  const version =
    typeof info?.version === 'string' || typeof info?.version === 'number' ? String(info.version) : null;
  const documents = paths.map((file): DocumentChanges => {
    const [b, r] = [base?.get(file), rev.get(file)];
    if (!base) return { file, status: r ? 'first' : 'absent', changes: [] };
    if (!b || !r) return { file, status: b ? 'removed' : r ? 'added' : 'absent', changes: [] };
    try {
      return { file, status: 'compared', changes: compareContracts(b, r) };
    } catch (error) {
      return { file, status: 'unreadable', changes: [], error: firstLine(error) };
    }
  });
  return { version, documents };
}

/** A comparison cached by its two commits and the gate's hash: commits never change, so it holds. */
function cached(
  dir: string,
  previous: string | null,
  sha: string,
  tally: Changelog['cache'],
  read: (sha: string) => Documents,
): Compared {
  const file = join(dir, `${previous ?? 'none'}-${sha}.json`);
  if (existsSync(file)) {
    try {
      const value = JSON.parse(readFileSync(file, 'utf8')) as Compared;
      tally.hits++;
      return value;
    } catch {
      // A torn write: compare again.
    }
  }
  let value: Compared;
  try {
    value = compare(previous, sha, read);
  } catch (error) {
    // A commit whose documents cannot be read at all: said in its entry, never a stop.
    const documents = Object.values(DOCUMENTS).map((f): DocumentChanges => ({
      file: f,
      status: 'unreadable',
      changes: [],
      error: firstLine(error),
    }));
    value = { version: null, documents };
  }
  tally.made++;
  writeFileSync(file, JSON.stringify(value));
  return value;
}

export interface ChangelogOptions {
  /** The repository's root (default: the project's). */
  root?: string;
  today?: string;
  baseline?: { file: string; accepted: Accepted[] };
  /** Where comparisons are cached (default `node_modules/.cache/clm-changelog`). */
  cacheDir?: string;
}

/**
 * The contract's changelog: every commit that changed `openapi/`, newest first, with the contract's
 * version and the gate's changes since the commit before it. A shallow clone or a folder outside
 * git gives what it holds and says how far back that reaches; nothing here throws.
 */
export function buildChangelog(options: ChangelogOptions = {}): Changelog {
  const root = options.root ?? projectPath('.');
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const reach: Changelog['reach'] = reachOf(root);
  const tally = { hits: 0, made: 0 };
  const out: Changelog = {
    today,
    reach,
    ...(options.baseline ? { baseline: options.baseline.file } : {}),
    entries: [],
    cache: tally,
  };
  if (!reach.git) return out;
  let commits: ContractCommit[];
  try {
    commits = contractCommits(root, FOLDER);
  } catch (error) {
    reach.error = firstLine(error);
    return out;
  }
  const dir = join(options.cacheDir ?? DEFAULT_CACHE, gateHash());
  prune(options.cacheDir ?? DEFAULT_CACHE, dir);
  const accepted = options.baseline?.accepted ?? [];
  // Each commit is one comparison's revision and the next one's base: read once.
  const read = memo((sha) => readSide({ label: sha, root: sha }, Object.values(DOCUMENTS)));
  out.entries = commits.map((commit, i) => {
    const previous = commits[i + 1]?.sha ?? null;
    const { version, documents } = cached(dir, previous, commit.sha, tally, read);
    const judged = documents.map((d) => ({ ...d, changes: judge(d.changes, accepted, today) }));
    return { ...commit, version, previous, documents: judged };
  });
  reach.oldest = commits.at(-1)?.date;
  return out;
}

function memo(read: (sha: string) => Documents) {
  const seen = new Map<string, Documents>();
  return (sha: string) => seen.get(sha) ?? seen.set(sha, read(sha)).get(sha)!;
}

/** Comparisons made by an older gate are dropped: they would never be read again. */
function prune(base: string, keep: string) {
  mkdirSync(keep, { recursive: true });
  for (const name of readdirSync(base))
    if (join(base, name) !== keep) rmSync(join(base, name), { recursive: true, force: true });
}

/** An entry's changes, every document's together. */
export const changesOf = (entry: ChangelogEntry) => entry.documents.flatMap((d) => d.changes);

/** Whether a change breaks clients and is not accepted by the baseline. */
export const breaks = (c: Judged) => c.level === 'error' && !c.accepted;

/** The number of changes at each level. */
export function countsOf(changes: readonly Change[]): Record<Level, number> {
  const counts = Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<Level, number>;
  for (const c of changes) counts[c.level]++;
  return counts;
}

/**
 * An entry's changes grouped by operation (the document's own changes under none), the groups
 * with a breaking change first, each group's changes by level.
 */
export function byOperation(
  changes: readonly Judged[],
): { operation: string | undefined; changes: Judged[] }[] {
  const groups = new Map<string | undefined, Judged[]>();
  for (const c of changes) groups.set(c.operation, [...(groups.get(c.operation) ?? []), c]);
  const rank = (c: Change) => LEVELS.indexOf(c.level);
  return [...groups]
    .map(([operation, list]) => ({ operation, changes: [...list].sort((a, b) => rank(a) - rank(b)) }))
    .sort((a, b) => rank(a.changes[0]!) - rank(b.changes[0]!));
}
