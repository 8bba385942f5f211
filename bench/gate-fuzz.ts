import { commandLine, usageError } from '../lib/cli.ts';
import { loadFuzzContract } from '../lib/spec-diff/fuzz/contract.ts';
import { reasonOf, tally } from '../lib/spec-diff/fuzz/oracle.ts';
import { fuzz } from '../lib/spec-diff/fuzz/run.ts';

/**
 * The gate on contract changes, fuzzed at scale: edits of the project's contract drawn by
 * fast-check, each through the gate in process (the rule table and the evidence of the contract's
 * examples), and each schema change's level checked by the values the oracle draws.
 */
const USAGE = `Usage: npm run bench:gate-fuzz -- [--edits N] [--seed S]

  Draws N valid edits of the contract (every JSON Schema 2020-12 and OpenAPI 3.1 keyword at every
  place a schema stands, and the operations around them) and runs the gate on each. Prints the
  edits, the throws (must be 0), the edits whose only changes fall back to a keyword the gate does
  not know (keyword-changed, document-keyword-changed), and the oracle's agreement with the rule
  table's levels: agreed, overstated (an error no value shows), missed (a breaking value the gate
  told only as info), undecided, and the disagreements by class with their reasons. Exits 1 when
  any edit throws.

  --edits N    how many edits (default 20000)
  --seed S     the seed of the draws (default 37)
  -h, --help   this text`;

const { values } = commandLine(USAGE, { edits: { type: 'string' }, seed: { type: 'string' } });
const count = Number(values.edits ?? 20_000);
const seed = Number(values.seed ?? 37);
if (!Number.isInteger(count) || count < 1)
  usageError(USAGE, `--edits must be a positive integer, not ${values.edits}`);
if (!Number.isInteger(seed)) usageError(USAGE, `--seed must be an integer, not ${values.seed}`);

const begun = performance.now();
const contract = await loadFuzzContract();
const report = fuzz(contract, count, seed, (n) => {
  if (n % 1000 === 0) process.stderr.write(`gate-fuzz: ${n} edits\n`);
});
const seconds = (performance.now() - begun) / 1000;
const result = tally(report.judged);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

console.log(
  `edits: ${report.edits} (seed ${seed}, ${seconds.toFixed(0)} s, ${((1000 * seconds) / count).toFixed(1)} ms each)`,
);
console.log(`throws: ${report.throws.length}`);
console.log(`keyword-changed fallbacks: ${report.fallbacks} edits (${pct(report.fallbacks / count)})`);
console.log(
  `oracle: ${pct(result.agreement)} agreement over ${result.agree + result.overstated + result.missed} judged changes ` +
    `(agree ${result.agree}, overstated ${result.overstated}, missed ${result.missed}; undecided ${result.undecided})`,
);
for (const [klass, n] of [...result.classes].sort((a, b) => b[1] - a[1]))
  console.log(`  ${String(n).padStart(5)} ${klass}: ${reasonOf(klass) ?? 'NO REASON: a finding'}`);
for (const t of report.throws.slice(0, 5))
  console.log(`throw: ${t.edit.label}\n  ${t.message.split('\n')[0]}`);
process.exitCode = report.throws.length > 0 ? 1 : 0;
