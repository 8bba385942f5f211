import type { TargetKind } from '../lib/config.ts';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { loadRules, projectPath } from '../lib/contract/index.ts';
import type { JSONReport } from '@playwright/test/reporter';
import { outcomes, type Outcome } from '../lib/mutation/outcomes.ts';
import { PLAN_VARIABLE, type MutationPlan } from '../lib/mutation/plan.ts';
import { mutationMarkdown, scores, type MutantResult, type MutationReport } from '../lib/report/mutation.ts';
import { FAULTS, type Fault } from '../mock/faults/index.ts';
import { liveEnvFor } from '../mock/live-env.ts';
import { createMock } from '../mock/server.ts';

const USAGE = `Usage: npm run mutation [-- --deep]

  Proves the suite's power: the clean mock first (a failing test there is a false positive), then
  every fault of the catalogue, switched on per test in warm workers. Each fault meets the tests of
  its rule, then a survivor the tests that reach its rule's operations, then the whole suite. The
  same again in live mode, for every fault a live run can see: the suite reaches a mock as a live
  service and asks for the fault on each request. Writes reports/mutation.md and .json; exits 1 if
  the baseline fails or a fault survives.

  --deep   also measure, for faults only property-based tests kill, the kill rate over 10 seeds
  --help   this text`;

if (process.argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
const DEEP = process.argv.includes('--deep');
const SEEDS = 10;
const PLAYWRIGHT = projectPath('node_modules/@playwright/test/cli.js');
const config = loadConfig();
const seed = String(config.fcSeed);
const work = mkdtempSync(join(tmpdir(), 'clm-mutation-'));
const phases: MutationReport['phases'] = [];
let runs = 0;

/** One Playwright run of a project, with a plan when faults are on; every test's outcome. */
/** One worker a core: the mock and the tests share the machine, so more only wait on each other. */
const WORKERS = Math.max(1, availableParallelism());

function playwright(
  name: string,
  options: { project: TargetKind; env?: Record<string, string>; plan?: MutationPlan; faults?: number },
): Promise<Outcome[]> {
  const begun = performance.now();
  const id = ++runs;
  const output = join(work, `run-${id}.json`);
  const planFile = join(work, `plan-${id}.json`);
  if (options.plan) writeFileSync(planFile, JSON.stringify(options.plan));
  const reporters = `json,${projectPath('lib/report/mutation-progress-reporter.ts')}`;
  const args = [
    PLAYWRIGHT,
    'test',
    `--project=${options.project}`,
    `--reporter=${reporters}`,
    `--workers=${WORKERS}`,
  ];
  console.log(`${name}${options.faults ? `: ${options.faults} faults` : ''}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        PLAYWRIGHT_JSON_OUTPUT_NAME: output,
        FC_SEED: seed,
        // A kill is a kill: no need to shrink the counterexample.
        FC_NO_SHRINK: 'true',
        CLM_REPORTS_DIR: join(work, `reports-${id}`),
        ...(options.plan ? { [PLAN_VARIABLE]: planFile } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const report = JSON.parse(readFileSync(output, 'utf8')) as JSONReport;
        const seconds = (performance.now() - begun) / 1000;
        phases.push({ name, faults: options.faults ?? 0, seconds });
        console.log(`${name}: done in ${seconds.toFixed(1)} s`);
        resolve(report.suites.flatMap((s) => outcomes(s)));
      } catch {
        reject(new Error(`Playwright gave no report (${name}):\n${stderr}`));
      }
    });
  });
}

/** Each fault against the tests `pick` chooses from the baseline: the plan of one run. */
function planFor(faults: readonly Fault[], tests: Outcome[], pick: (fault: Fault, test: Outcome) => boolean) {
  const plan: MutationPlan = { faults: {} };
  for (const fault of faults)
    for (const test of tests) if (pick(fault, test)) (plan.faults[test.key] ??= []).push(fault.name);
  return plan;
}

/** The kills of a planned run: by fault, the tests that failed with it. */
function kills(tests: Outcome[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const t of tests)
    if (t.failed && t.fault) found.set(t.fault, [...(found.get(t.fault) ?? []), t.title]);
  return found;
}

const operationsOf = new Map(loadRules().map((r) => [r.id, r.operations]));

/**
 * One mode's mutation: the faults against the tests of their rule, a survivor against the tests
 * that reach its rule's operations (per-test coverage from the baseline), then the whole suite.
 */
async function mutate(
  mode: string,
  faults: readonly Fault[],
  baseline: Outcome[],
  run: (name: string, plan: MutationPlan, faults: number) => Promise<Outcome[]>,
): Promise<Map<string, string[]>> {
  const killed = new Map<string, string[]>();
  const tests = baseline.filter((t) => !t.skipped);
  const steps: [string, (f: Fault, t: Outcome) => boolean][] = [
    ['the tests of its rule', (f, t) => t.rules.includes(f.rule)],
    [
      "the tests that reach its rule's operations",
      (f, t) => t.operations.some((op) => (operationsOf.get(f.rule) ?? []).includes(op)),
    ],
    ['the whole suite', () => true],
  ];
  for (const [what, pick] of steps) {
    const left = faults.filter((f) => !killed.has(f.name));
    if (left.length === 0) break;
    const plan = planFor(left, tests, pick);
    if (Object.keys(plan.faults).length === 0) continue;
    for (const [fault, by] of kills(await run(`${mode}: each fault against ${what}`, plan, left.length)))
      if (!killed.has(fault)) killed.set(fault, by);
  }
  return killed;
}

/** With --deep: how many of 10 seeds kill each fault that only property-based tests kill. */
async function killRates(results: Map<string, MutantResult>, baseline: Outcome[]): Promise<void> {
  const propertyOnly = [...results.values()].filter((r) =>
    r.killedBy.every((title) => baseline.find((t) => t.title === title)?.property),
  );
  const plan: MutationPlan = { faults: {} };
  for (const r of propertyOnly)
    for (const t of baseline.filter((t) => t.property && t.rules.includes(r.rule)))
      (plan.faults[t.key] ??= []).push(...Array<string>(SEEDS).fill(r.fault));
  if (Object.keys(plan.faults).length === 0) return;
  const repeated = await playwright(`Deep: ${SEEDS} seeds of the property tests`, {
    project: 'mock',
    plan,
    faults: propertyOnly.length,
  });
  for (const r of propertyOnly) {
    const seeds = new Set(repeated.filter((t) => t.fault === r.fault && t.failed).map((t) => t.seed));
    r.propertyKillRate = { killed: seeds.size, seeds: SEEDS };
  }
}

/** The baseline of a mode: every test must pass; a failure there is a false positive. */
function clean(name: string, tests: Outcome[]): boolean {
  const falsePositives = tests.filter((t) => t.failed);
  if (falsePositives.length === 0) return true;
  console.error(`${name} failed: ${falsePositives.length} test(s) fail with no fault (false positives):`);
  for (const t of falsePositives) console.error(`  ✗ ${t.key}`);
  return false;
}

async function main(): Promise<number> {
  const started = performance.now();
  console.log(
    `Mutation run: ${FAULTS.length} faults of the mock, in mock and live mode. fast-check seed ${seed}.`,
  );
  const baselineStart = performance.now();
  const baseline = await playwright('Mock: baseline, the clean mock', { project: 'mock' });
  const baselineSeconds = (performance.now() - baselineStart) / 1000;
  if (!clean('Mock baseline', baseline)) return 1;

  const results = new Map<string, MutantResult>(
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
  const mockKills = await mutate('Mock', FAULTS, baseline, (name, plan, faults) =>
    playwright(name, { project: 'mock', plan, faults }),
  );
  for (const [fault, by] of mockKills) Object.assign(results.get(fault)!, { killed: true, killedBy: by });

  // Live: one mock whose control is on, reached as a live service; each request asks for its fault.
  const liveRules = new Set(
    loadRules()
      .filter((r) => r.where.includes('both'))
      .map((r) => r.id),
  );
  const liveFaults = FAULTS.filter((f) => liveRules.has(f.rule) && !f.notLive);
  const mock = await createMock({ seed: 1, control: true });
  try {
    const env = { ...liveEnvFor(mock), CLM_RATE_LIMIT: '100000', CLM_REQUEST_BUDGET: '10000000' };
    const liveBaseline = await playwright('Live: baseline, the clean mock as a live service', {
      project: 'live',
      env,
    });
    if (!clean('Live baseline', liveBaseline)) return 1;
    const liveKills = await mutate('Live', liveFaults, liveBaseline, (name, plan, faults) =>
      playwright(name, { project: 'live', env, plan, faults }),
    );
    for (const f of liveFaults)
      results.get(f.name)!.live = { killed: liveKills.has(f.name), killedBy: liveKills.get(f.name) ?? [] };
  } finally {
    await mock.close();
  }
  if (DEEP) await killRates(results, baseline);

  const report: MutationReport = {
    seed,
    baseline: { tests: baseline.length, seconds: baselineSeconds },
    phases,
    seconds: (performance.now() - started) / 1000,
    results: [...results.values()],
  };
  mkdirSync(config.reportsDir, { recursive: true });
  writeFileSync(join(config.reportsDir, 'mutation.md'), mutationMarkdown(report));
  writeFileSync(join(config.reportsDir, 'mutation.json'), `${JSON.stringify(report, null, 2)}\n`);

  const s = scores(report);
  console.log(
    [
      '',
      `Mutation score: mock ${s.mock.killed}/${s.mock.total}, live ${s.live.killed}/${s.live.total} (faults a live run can see), in ${report.seconds.toFixed(0)} s.`,
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

process.exitCode = await main();
