import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FullConfig } from '@playwright/test/reporter';
import type { TargetKind } from '../config.ts';
import type { Contract } from '../contract/index.ts';
import { projectPath } from '../paths.ts';

/** The suite's commit, when it runs from a git checkout. */
export function suiteCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

/** The suite's package version, from its package.json. */
export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The target in one line: the live service's base URL, or the bundled mock with the number of
 * workers' mocks the tests reached (each worker has its own, on a port of its own).
 */
export function targetLine(kind: TargetKind, liveBaseUrl: string, mocks: number): string {
  if (kind !== 'mock') return liveBaseUrl || 'a live service';
  return mocks > 0 ? `the bundled mock, one per worker (${mocks})` : 'the bundled mock';
}

/** The contract's version and a short hash of its text: two runs name the same contract or not. */
export function contractIdentity(contract: Contract): { version: string; hash: string } {
  const { main } = contract.documents;
  const hash = createHash('sha256').update(JSON.stringify(contract.documents)).digest('hex').slice(0, 12);
  return { version: main.info.version, hash };
}

/** Options of `playwright test` that run a part of the suite. */
const SELECTING = ['--last-failed', '--only-changed', '--grep', '-g', '--grep-invert', '--test-list'];

/** The title filter named on the command line (`-g X`, `--grep X`, `--grep=X`), if any. */
function titleFilter(args: string[]): string | undefined {
  const at = args.findIndex((a) => a === '-g' || a === '--grep');
  if (at >= 0) return args[at + 1];
  return args.find((a) => a.startsWith('--grep='))?.slice('--grep='.length);
}

/**
 * Why a run is a part of the suite, not the whole: a shard, a title filter, files named on the
 * command line. Empty for a full run, and for shards merged into one report.
 */
export function partialReasons(config: FullConfig, argv: string[] = process.argv): string[] {
  const reasons: string[] = [];
  if (config.shard) reasons.push(`shard ${config.shard.current} of ${config.shard.total}`);
  const grep = [config.grep].flat().map(String);
  if (grep.some((g) => g !== '/.*/')) reasons.push(`tests filtered by title (${grep.join(', ')})`);
  if (config.grepInvert) reasons.push(`tests left out by title (${String(config.grepInvert)})`);
  const at = argv.findIndex((a) => a === 'test');
  if (at >= 0) {
    const args = argv.slice(at + 1);
    const files = args.filter((a, i) => !a.startsWith('-') && !(args[i - 1] ?? '').match(/^-[^=]*$/));
    if (files.length > 0) reasons.push(`files named (${files.join(' ')})`);
    // The runner applies `-g` itself: the config's grep does not carry it.
    const title = titleFilter(args);
    if (title !== undefined) reasons.push(`tests filtered by title (/${title}/)`);
    const options = args.filter((a) => SELECTING.includes(a.split('=')[0]!) && !/^(-g|--grep)(=|$)/.test(a));
    if (options.length > 0) reasons.push(`selected with ${options.join(' ')}`);
  }
  return [...new Set(reasons)];
}
