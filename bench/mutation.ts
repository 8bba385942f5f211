import { commandLine } from '../lib/cli.ts';
import { timed } from './measure.ts';
import { scratchFolder } from '../lib/scratch.ts';

/**
 * The mutation run's cost as a ratio to one plain run of the conformance suite against the mock,
 * both measured here, one after the other: the whole catalogue in mock and live mode must cost at
 * most 5 plain runs, about a minute where a plain run takes 12 s (each fault stops at its first
 * kill, the baseline rides in the first run of each mode, warm workers).
 */
const TARGET = 5;
const PLAIN_SECONDS = 12;
commandLine(`Usage: npm run bench:mutation

  Times one plain run of the conformance suite against the mock, then the mutation run, and
  exits 1 when the mutation run costs more than ${TARGET} plain runs (or either run fails).

  -h, --help   this text`);

const reports = scratchFolder('bench-mutation');

const env = { CLM_REPORTS_DIR: reports, FC_SEED: '1' };
const plain = timed('npx', ['playwright', 'test', '--project=mock', '--reporter=dot', '--workers=2'], env);
const mutation = timed('npx', ['tsx', 'scripts/mutation.ts'], env);
const ratio = mutation.seconds / plain.seconds;
const score = /Mutation score: [^\n]*/.exec(mutation.tail)?.[0];
const minute = TARGET * PLAIN_SECONDS;
const target = `at most ${TARGET}x, about ${minute} s where a plain run takes ${PLAIN_SECONDS} s`;
console.log(
  [
    `One plain run of the suite against the mock: ${plain.seconds.toFixed(1)} s`,
    `The mutation run (every fault, mock and live mode): ${mutation.seconds.toFixed(1)} s`,
    ...(score ? [score] : []),
    `Ratio: ${ratio.toFixed(1)}x (target: ${target})`,
  ].join('\n'),
);
const failures = [
  plain.status !== 0 ? `the plain run failed:\n${plain.tail}` : '',
  mutation.status !== 0 ? `the mutation run failed:\n${mutation.tail}` : '',
  ratio > TARGET ? `the mutation run costs more than ${TARGET} plain runs` : '',
].filter(Boolean);
if (failures.length > 0) {
  console.error(`FAILED: ${failures.join('\n')}`);
  process.exitCode = 1;
}
