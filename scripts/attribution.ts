import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { commandLine, usageError } from '../lib/cli.ts';
import { loadConfig } from '../lib/config.ts';
import { loadRules } from '../lib/contract/index.ts';
import { FAULTS, type Fault } from '../mock/faults/index.ts';
import { PlaywrightRunner } from '../rig/mutation/runner.ts';
import { clean, planByTest } from '../rig/mutation/strategy.ts';
import { scratchFolder } from '../lib/scratch.ts';

const USAGE = `Usage: npm run attribution [-- --faults a,b] [-- --workers N]

  Measures attribution over the fault catalogue: each fault, switched on alone for every test that
  names its rule, is tagged with it or reaches its rule's operations, in the warm workers of the
  mutation run. A fault turns red the rules its tests' failures are attributed to. Prints how many
  faults turn exactly their own rule red, how many their own and the rules their nature breaks too
  (\`alsoBreaks\` in the catalogue), how many only those, how many one more, and the others; writes
  reports/attribution.md and .json. Takes minutes: not part of npm test.

  --faults a,b  only these faults (names of mock/faults)
  --workers N   Playwright workers (default: the machine's cores)
  -h, --help    this text`;

const { values: options } = commandLine(USAGE, { faults: { type: 'string' }, workers: { type: 'string' } });
const workers = options.workers === undefined ? availableParallelism() : Number(options.workers);
if (!Number.isInteger(workers) || workers < 1)
  usageError(USAGE, `--workers "${options.workers}" is not a whole number`);
const named = options.faults?.split(',').filter(Boolean);
const unknown = named?.filter((n) => !FAULTS.some((f) => f.name === n)) ?? [];
if (unknown.length) usageError(USAGE, `No such fault: ${unknown.join(', ')}`);
const faults = named ? FAULTS.filter((f) => named.includes(f.name)) : FAULTS;

const config = loadConfig();
const operationsOf = new Map(loadRules().map((r) => [r.id, r.operations]));
const runner = new PlaywrightRunner({
  work: scratchFolder('attribution'),
  workers,
  seed: String(config.fcSeed),
  stopAtFirstKill: false,
});

/** How a fault's red rules compare with the rule it is catalogued under and those it also breaks. */
type Class =
  | 'exactly its rule'
  | 'its rule and what it also breaks'
  | 'only what it also breaks'
  | 'its rule and one more'
  | 'other';

/** The classes the catalogue allows: its rule, alone or with the one it names beside it. */
const WITHIN = new Set<Class>(['exactly its rule', 'its rule and what it also breaks']);

interface Measured {
  fault: string;
  rule: string;
  red: string[];
  class: Class;
  by: Record<string, string[]>;
}

function classify(fault: Fault, red: string[]): Class {
  const others = red.filter((r) => r !== fault.rule);
  if (red.length === 1 && others.length === 0) return 'exactly its rule';
  // A test of the rule may stop at the rule the fault also breaks, leaving its own undecided.
  if (red.length > 0 && others.every((r) => fault.alsoBreaks?.includes(r)))
    return red.includes(fault.rule) ? 'its rule and what it also breaks' : 'only what it also breaks';
  return red.includes(fault.rule) && others.length === 1 ? 'its rule and one more' : 'other';
}

function markdown(measured: Measured[], counts: Record<Class, number>): string {
  const rows = measured.map((m) => `| ${m.fault} | ${m.rule} | ${m.red.join(', ') || 'none'} | ${m.class} |`);
  return [
    '# Attribution over the fault catalogue',
    '',
    ...Object.entries(counts).map(([c, n]) => `- ${c}: ${n} of ${measured.length}`),
    '',
    '| Fault | Rule | Rules red | |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

async function main(): Promise<number> {
  const baseline = await runner.run('the clean mock', { project: 'mock', plan: { clean: true } });
  if (!clean('The clean mock', baseline)) return 1;
  // Every test the mutation run may kill a fault with, short of the whole suite.
  const plan = { byTest: planByTest(faults, baseline, (reach) => reach !== 'rest', operationsOf) };
  const ran = await runner.run('each fault alone', { project: 'mock', plan, faults: faults.length });
  const measured = faults.map((f): Measured => {
    const red = [
      ...new Set(ran.filter((t) => t.fault === f.name && t.failed).flatMap((t) => t.attributed)),
    ].sort();
    // Which test turned which rule red: where to look when a fault turns more than its rule.
    const by = Object.fromEntries(
      ran.filter((t) => t.fault === f.name && t.failed).map((t) => [t.key, t.attributed]),
    );
    return { fault: f.name, rule: f.rule, red, class: classify(f, red), by };
  });
  const counts: Record<Class, number> = {
    'exactly its rule': 0,
    'its rule and what it also breaks': 0,
    'only what it also breaks': 0,
    'its rule and one more': 0,
    other: 0,
  };
  for (const m of measured) counts[m.class]++;
  mkdirSync(config.reportsDir, { recursive: true });
  writeFileSync(join(config.reportsDir, 'attribution.md'), markdown(measured, counts));
  writeFileSync(
    join(config.reportsDir, 'attribution.json'),
    `${JSON.stringify({ counts, measured }, null, 2)}\n`,
  );
  console.log(
    Object.entries(counts)
      .map(([c, n]) => `${c}: ${n}`)
      .join('; '),
  );
  for (const m of measured.filter((x) => !WITHIN.has(x.class)))
    console.log(`  ${m.fault} (${m.rule}): ${m.red.join(', ') || 'no rule red'}`);
  console.log(`Report: ${join(config.reportsDir, 'attribution.md')}`);
  return 0;
}

process.exitCode = await main();
