import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine } from '../lib/cli.ts';
import { DOCUMENTS } from '../lib/contract/index.ts';
import { compareContracts, SpecDocument } from '../lib/spec-diff/index.ts';
import { median, spread } from './measure.ts';

/**
 * The gate on contract changes at the scale of the largest public descriptions: GitHub's REST
 * description, two releases of `@octokit/openapi` fetched from the npm registry by this bench only
 * (never by `npm test`), against the project's own contract, in the same run. Each comparison runs
 * in a process of its own, so its peak memory is its own.
 */
const USAGE = `Usage: npm run bench:gate

  The gate (reading both documents and comparing them) on GitHub's REST description, two releases of
  @octokit/openapi (generated/api.github.com.json, 12 to 13 MB each), against the project's contract
  compared with itself, interleaved rounds in fresh processes. Prints both times, their ratio, the
  peak memory (resident set) and the changes found. Target: at most 5 s and 400 MB. Exits 1 when
  the target is missed. The packages are fetched once (npm pack) into BENCH_GATE_CACHE.

  BENCH_GATE_BASE       the base release (default 22.0.0)
  BENCH_GATE_REVISION   the revision's release (default 23.0.2)
  BENCH_GATE_CACHE      where the packages are kept (default <tmp>/clm-bench-gate)
  BENCH_ROUNDS          interleaved rounds (default 3)
  -h, --help            this text`;

interface Measured {
  seconds: number;
  /** The peak resident set of the process, in MB. */
  peak: number;
  changes: number;
  verdict: string;
}

/** In the child: one comparison, timed from reading the files to the classified changes. */
function measure(base: string, revision: string): Measured {
  const begun = performance.now();
  const changes = compareContracts(SpecDocument.fromFile(base), SpecDocument.fromFile(revision));
  const seconds = (performance.now() - begun) / 1000;
  const errors = changes.filter((c) => c.level === 'error').length;
  const count = (level: string) => changes.filter((c) => c.level === level).length;
  return {
    seconds,
    peak: process.resourceUsage().maxRSS / 1024,
    changes: changes.length,
    verdict: `${errors ? 'fails' : 'passes'} (${errors} error, ${count('warning')} warning, ${count('info')} info)`,
  };
}

if (process.argv[2] === '--child') {
  process.stdout.write(JSON.stringify(measure(process.argv[3]!, process.argv[4]!)));
  process.exit(0);
}
commandLine(USAGE);

const BASE = process.env.BENCH_GATE_BASE ?? '22.0.0';
const REVISION = process.env.BENCH_GATE_REVISION ?? '23.0.2';
const CACHE = process.env.BENCH_GATE_CACHE ?? join(tmpdir(), 'clm-bench-gate');
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const FILE = 'package/generated/api.github.com.json';

/** GitHub's description of one release, fetched with npm's own client once and kept. */
function description(version: string): string {
  const dir = join(CACHE, version);
  const file = join(dir, FILE);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const packed = execFileSync('npm', ['pack', `@octokit/openapi@${version}`, '--silent'], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['-xzf', join(dir, packed.split('\n').pop()!), '-C', dir, FILE]);
  return file;
}

function child(base: string, revision: string): Measured {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/gate.ts', '--child', base, revision], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`bench:gate: the comparison failed\n${run.stderr.slice(-1500)}`);
  return JSON.parse(run.stdout) as Measured;
}

const [base, revision] = [description(BASE), description(REVISION)];
const contract = DOCUMENTS.main;
const small: Measured[] = [];
const large: Measured[] = [];
for (let round = 0; round < ROUNDS; round++) {
  small.push(child(contract, contract));
  large.push(child(base, revision));
}
const seconds = median(large.map((m) => m.seconds));
const smallSeconds = median(small.map((m) => m.seconds));
const peak = Math.max(...large.map((m) => m.peak));
const verdicts = new Set(large.map((m) => `${m.changes} changes, the gate ${m.verdict}`));
console.log(
  `GitHub's REST description, @octokit/openapi ${BASE} to ${REVISION}: ${[...verdicts].join('; ')}\n` +
    `  ${seconds.toFixed(2)} s (rounds ${spread(
      large.map((m) => m.seconds),
      2,
      ' s',
    )}), ` +
    `peak ${peak.toFixed(0)} MB (rounds ${spread(
      large.map((m) => m.peak),
      0,
      ' MB',
    )})\n` +
    `  the contract (${contract}) with itself: ${smallSeconds.toFixed(3)} s ` +
    `(rounds ${spread(
      small.map((m) => m.seconds),
      3,
      ' s',
    )}), peak ${Math.max(...small.map((m) => m.peak)).toFixed(0)} MB\n` +
    `  ratio: ${(seconds / smallSeconds).toFixed(0)}× the contract's time`,
);
const missed = [
  seconds > 5 && `${seconds.toFixed(2)} s > 5 s`,
  peak > 400 && `${peak.toFixed(0)} MB > 400 MB`,
];
if (missed.some(Boolean)) {
  console.log(`Target missed: ${missed.filter(Boolean).join(', ')}.`);
  process.exit(1);
}
console.log('Target met: at most 5 s and 400 MB.');
