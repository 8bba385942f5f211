import { commandLine, usageError } from '../lib/cli.ts';
import { median, spread, timed } from './measure.ts';
import { scratchFolder } from '../lib/scratch.ts';

/**
 * The conformance run against the mock as a ratio to a baseline measured in the same rounds: the
 * same runner, workers and mock running one quick test. The baseline holds what every run pays
 * (the runner's start, the transform, a worker and its mock), so the ratio is what the suite
 * itself costs, and holds on a busy machine as on a quiet one.
 */
// The goal is 15 s on 2 cores, where the quick test takes about 2.3 s: at most 6 of them.
const TARGET = 6;
const GOAL_SECONDS = 15;
const USAGE = `Usage: npm run bench:conformance [-- --rounds N]

  Times, in interleaved rounds, one quick test and then the whole conformance suite against the
  bundled mock, and exits 1 when the suite costs more than ${TARGET} times the quick test (the
  median of the rounds), or when either run fails. Per-test timings are in reports/timings.md.

  --rounds N   rounds to run (default 2)
  -h, --help   this text`;
const options = commandLine(USAGE, { rounds: { type: 'string' } });
const rounds = Number(options.values.rounds ?? 2);
if (!Number.isInteger(rounds) || rounds < 1)
  usageError(USAGE, '--rounds must be a whole number of at least 1');

const reports = scratchFolder('bench-conformance');
const env = { CLM_REPORTS_DIR: reports, FC_SEED: '1' };
const runner = ['playwright', 'test', '--project=mock', '--reporter=dot'];
const QUICK = 'since in the future gets 400';

const base: number[] = [];
const full: number[] = [];
const failures: string[] = [];
for (let round = 0; round < rounds; round++) {
  const quick = timed('npx', [...runner, '-g', QUICK], env);
  const suite = timed('npx', runner, env);
  if (quick.status !== 0) failures.push(`the quick test failed:\n${quick.tail}`);
  if (suite.status !== 0) failures.push(`the suite failed:\n${suite.tail}`);
  base.push(quick.seconds);
  full.push(suite.seconds);
}
const ratios = full.map((f, i) => f / base[i]!);
const ratio = median(ratios);
console.log(
  `Conformance run against the mock, ${rounds} interleaved rounds:
  one quick test  ${median(base).toFixed(1)} s (${spread(base, 1, ' s')})
  whole suite     ${median(full).toFixed(1)} s (${spread(full, 1, ' s')}; ` +
    `goal: at most ${GOAL_SECONDS} s on 2 cores)
  ratio           ${ratio.toFixed(2)}x, median of ${ratios.map((r) => r.toFixed(2)).join(' ')} ` +
    `(target: at most ${TARGET}x)`,
);
if (ratio > TARGET) failures.push(`the suite costs more than ${TARGET} quick runs`);
if (failures.length > 0) {
  console.error(`FAILED: ${failures.join('\n')}`);
  process.exitCode = 1;
}
