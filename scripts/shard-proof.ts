import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '../lib/cli.ts';
import type { ConformanceReport } from '../lib/report/model.ts';
import { scratchFolder } from '../lib/scratch.ts';

/**
 * `npm run shard:proof`: the mock suite once unsharded, then as two shards with blob reports merged;
 * the conformance verdict of every rule must be the same both ways.
 */
commandLine(`Usage: npm run shard:proof

  Runs the conformance suite against the mock once unsharded, then as two shards whose blob
  reports are merged, and compares the verdict of every rule; exits 1 if any differs. Uses
  FC_SEED when set (default 20261122), so both ways see the same property cases.

  -h, --help   this text`);

const work = scratchFolder('shards');
const seed = process.env.FC_SEED ?? '20261122';
const playwright = (args: string[], reports: string) => {
  const run = spawnSync('npx', ['playwright', ...args], {
    env: { ...process.env, FC_SEED: seed, CLM_REPORTS_DIR: reports, CLM_BLOB: '1', CLM_TARGET: 'mock' },
    encoding: 'utf8',
  });
  const summary = run.stdout.split('\n').filter((l) => l.startsWith('Conformance') || l.startsWith('Tests:'));
  console.log(`$ npx playwright ${args.join(' ')}\n${summary.join('\n')}`);
  return run.status;
};
const verdicts = (dir: string) => {
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  return new Map(report.rows.map((row) => [row.rule.id, row.verdict]));
};

playwright(['test', '--project=mock'], join(work, 'one'));
const blobs = join(work, 'blobs');
mkdirSync(blobs);
for (const shard of [1, 2]) {
  const dir = join(work, `shard-${shard}`);
  playwright(['test', '--project=mock', `--shard=${shard}/2`], dir);
  for (const blob of readdirSync(join(dir, 'blob')))
    copyFileSync(join(dir, 'blob', blob), join(blobs, `${shard}-${blob}`));
}
playwright(['merge-reports', '--config', 'playwright.config.ts', blobs], join(work, 'merged'));

const one = verdicts(join(work, 'one'));
const merged = verdicts(join(work, 'merged'));
const differ = [...one].filter(([rule, verdict]) => merged.get(rule) !== verdict);
const tally = (m: Map<string, string>) =>
  [...new Set(m.values())].map((v) => `${[...m.values()].filter((x) => x === v).length} ${v}`).join(', ');
console.log(`\nUnsharded: ${tally(one)}. Two shards merged: ${tally(merged)}.`);
for (const [rule, verdict] of differ)
  console.log(`  ${rule}: ${verdict} unsharded, ${merged.get(rule) ?? 'missing'} merged`);
console.log(
  differ.length ? `${differ.length} rule(s) differ.` : `The same verdict for all ${one.size} rules.`,
);
process.exitCode = differ.length ? 1 : 0;
