import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { commandLine } from '../lib/cli.ts';
import { loadConfig } from '../lib/config.ts';
import { loadRules } from '../lib/contract/index.ts';
import { mutationMarkdown, scores, type MutantResult, type MutationReport } from '../lib/report/mutation.ts';
import { FAULTS, type Fault } from '../mock/faults/index.ts';
import type { Outcome } from '../rig/mutation/outcomes.ts';
import { profileTable } from '../rig/mutation/profile.ts';
import { PlaywrightRunner } from '../rig/mutation/runner.ts';
import { baselineAndRules, survivors, type RunPlan } from '../rig/mutation/strategy.ts';
import { withLiveTwin } from '../rig/mutation/twin.ts';
import { scratchFolder } from '../lib/scratch.ts';

const USAGE = `Usage: npm run mutation [-- --deep] [-- --profile] [-- --workers N]

  Proves the suite's power: every fault of the catalogue, switched on per test in warm workers,
  each stopping at its first kill. The first Playwright run of a mode runs every test once against
  the clean mock (a failing test there is a false positive) and each fault against the tests of its
  rule; a survivor then meets the tests tagged with its rule (the exploration's), the other tests
  that reach its rule's operations, then the rest of the suite. The same in live mode, side by
  side with mock mode, for every fault a live run can see: the suite
  reaches the twin of the real gateway (npm run mock -- --as ft-gateway: an ordinary key's
  fields, plain-HTTP links, delivery at least once, outages) as a live service and asks for the
  fault on each request. Writes
  reports/mutation.md and .json; exits 1 if the baseline fails or a fault survives.

  --deep        also measure, for faults only property-based tests kill, the kill rate over 10 seeds
                (every fault then meets all its tests of a step, to know every test that kills it)
  --profile     also print and write (reports/mutation-profile.json), for each Playwright run, its wall
                time, the workers it started, the tests it ran and the time spent waiting on them
  --workers N   Playwright workers of each mode (default: the machine's cores)
  -h, --help    this text`;

const { values: options } = commandLine(USAGE, {
  deep: { type: 'boolean' },
  profile: { type: 'boolean' },
  workers: { type: 'string' },
});
const SEEDS = 10;
const config = loadConfig();
const seed = String(config.fcSeed);
/** One worker a core a mode by default: the two modes run side by side and fill each other's gaps. */
const WORKERS = options.workers === undefined ? Math.max(1, availableParallelism()) : Number(options.workers);
if (!Number.isInteger(WORKERS) || WORKERS < 1) {
  console.error(`--workers takes a whole number of at least 1, not '${options.workers}'\n\n${USAGE}`);
  process.exit(2);
}
const runner = new PlaywrightRunner({
  work: scratchFolder('mutation'),
  workers: WORKERS,
  seed,
  stopAtFirstKill: !options.deep,
});
const rules = loadRules();
const operationsOf = new Map(rules.map((r) => [r.id, r.operations]));

/** Every fault of the catalogue, none killed yet. */
function emptyResults(): Map<string, MutantResult> {
  return new Map(
    FAULTS.map((f) => [
      f.name,
      {
        fault: f.name,
        rule: f.rule,
        kind: f.kind,
        description: f.description,
        killed: false,
        killedBy: [],
        ...(f.notLive ? { notLive: f.notLive } : {}),
      },
    ]),
  );
}

const runMock: RunPlan = (name, plan, faults) => runner.run(name, { project: 'mock', plan, faults });

/** The kills of a mode into the results: mock mode's verdict, or live mode's. */
function record(results: Map<string, MutantResult>, killed: Map<string, string[]>, live?: readonly Fault[]) {
  if (!live)
    for (const [fault, by] of killed) Object.assign(results.get(fault)!, { killed: true, killedBy: by });
  else
    for (const f of live)
      results.get(f.name)!.live = { killed: killed.has(f.name), killedBy: killed.get(f.name) ?? [] };
}

/** Live mode: the twin, reached as a live service, every fault a live run can see. */
async function liveMode(results: Map<string, MutantResult>): Promise<boolean> {
  const liveRules = new Set(rules.filter((r) => r.where.includes('both')).map((r) => r.id));
  const liveFaults = FAULTS.filter((f) => liveRules.has(f.rule) && !f.notLive);
  return withLiveTwin(runner, async (run) => {
    const mode = await baselineAndRules('Live', liveFaults, run);
    if (!mode) return false;
    await survivors('Live', liveFaults, mode, operationsOf, run);
    record(results, mode.killed, liveFaults);
    return true;
  });
}

/** With --deep: how many of 10 seeds kill each fault that only property-based tests kill. */
async function killRates(results: Map<string, MutantResult>, baseline: Outcome[]): Promise<void> {
  const propertyOnly = [...results.values()].filter((r) =>
    r.killedBy.every((title) => baseline.find((t) => t.title === title)?.property),
  );
  const byTest: Record<string, string[]> = {};
  for (const r of propertyOnly)
    for (const t of baseline.filter((t) => t.property && t.rules.includes(r.rule)))
      (byTest[t.key] ??= []).push(...Array<string>(SEEDS).fill(r.fault));
  if (Object.keys(byTest).length === 0) return;
  const repeated = await runner.run(`Deep: ${SEEDS} seeds of the property tests`, {
    project: 'mock',
    plan: { byTest },
    faults: propertyOnly.length,
    stopAtFirstKill: false,
  });
  for (const r of propertyOnly) {
    const seeds = new Set(repeated.filter((t) => t.fault === r.fault && t.failed).map((t) => t.seed));
    r.propertyKillRate = { killed: seeds.size, seeds: SEEDS };
  }
}

/** The report, as Markdown and JSON (and the profile, with --profile). */
function writeReport(report: MutationReport): void {
  mkdirSync(config.reportsDir, { recursive: true });
  writeFileSync(join(config.reportsDir, 'mutation.md'), mutationMarkdown(report));
  writeFileSync(join(config.reportsDir, 'mutation.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (!options.profile) return;
  console.log(`\n${profileTable(runner.profiles, WORKERS)}`);
  const profile = { workers: WORKERS, seconds: report.seconds, phases: runner.profiles };
  writeFileSync(join(config.reportsDir, 'mutation-profile.json'), `${JSON.stringify(profile, null, 2)}\n`);
}

/** The scores and survivors; the exit code. */
function printScores(report: MutationReport): number {
  const s = scores(report);
  console.log(
    [
      '',
      `Mutation score: mock ${s.mock.killed}/${s.mock.total}, live ${s.live.killed}/${s.live.total} ` +
        `(faults a live run can see), in ${report.seconds.toFixed(0)} s.`,
      s.survivors.length
        ? `Survived in mock mode: ${s.survivors.map((r) => `${r.fault} (${r.rule})`).join(', ')}`
        : '',
      s.liveSurvivors.length
        ? `Survived in live mode: ${s.liveSurvivors.map((r) => `${r.fault} (${r.rule})`).join(', ')}`
        : '',
      `Report: ${join(config.reportsDir, 'mutation.md')}`,
      `${s.mock.killed + s.live.killed} passed, ${s.survivors.length + s.liveSurvivors.length} failed`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return s.survivors.length + s.liveSurvivors.length > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  const started = performance.now();
  console.log(
    `Mutation run: ${FAULTS.length} faults of the mock, in mock and live mode. fast-check seed ${seed}.`,
  );
  const results = emptyResults();
  // Mock mode and live mode run side by side: each run's start-up and last tests leave the cores
  // idle, which the other mode fills. Each baseline is still a whole run of its own, every test once.
  const mockMode = async () => {
    const found = await baselineAndRules('Mock', FAULTS, runMock);
    if (found) await survivors('Mock', FAULTS, found, operationsOf, runMock);
    return found;
  };
  const [mock, live] = await Promise.all([mockMode(), liveMode(results)]);
  if (!mock) return 1;
  record(results, mock.killed);
  if (!live) return 1;
  if (options.deep) await killRates(results, mock.baseline);
  const report: MutationReport = {
    seed,
    baseline: { tests: mock.baseline.length, seconds: mock.baseline.reduce((sum, t) => sum + t.seconds, 0) },
    phases: runner.phases,
    seconds: (performance.now() - started) / 1000,
    results: [...results.values()],
  };
  writeReport(report);
  return printScores(report);
}

process.exitCode = await main();
