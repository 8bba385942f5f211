import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { loadRules, projectPath } from '../lib/contract/index.ts';
import { FAULTS } from '../mock/faults.ts';
import { liveEnvFor } from '../mock/live-env.ts';
import { createMock } from '../mock/server.ts';

/**
 * The suite's power, proved: the clean mock first (every test must pass, or the run fails on a
 * false positive), then the suite against the mock with each fault switched on; a fault is killed
 * when a test fails. Each mutant is a Playwright project, so one run decides them all:
 *   1. each mutant runs the tests of the rule its fault breaks (most are killed there, cheaply);
 *   2. a survivor runs the whole suite;
 *   3. each fault of a rule checked live meets the suite in live mode (see liveMode);
 * and with `--deep` (npm run mutation:deep, nightly), measures what decides no kill:
 *   4. a mutant killed only by property-based tests runs every other test, to be sure of that;
 *   5. such mutants run their property tests over 10 consecutive seeds: the kill rate.
 */

const USAGE = `Usage: npm run mutation [-- --deep]

  Runs the suite against the clean mock, then against it with each fault of the catalogue, in mock
  mode and, for faults of rules checked live, in live mode. Writes reports/mutation.md and .json;
  exits 1 if a fault survives in mock mode or the clean mock fails a test.

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
let runs = 0;

interface MutantProject {
  name: string;
  faults: string[];
  live?: Record<string, string>;
  grep?: string;
  grepInvert?: string;
}

interface TestOutcome {
  project: string;
  title: string;
  failed: boolean;
  property: boolean;
  seed: string | undefined;
  seconds: number;
}

interface JsonTest {
  projectName: string;
  status: string;
  annotations: { type: string; description?: string }[];
  results: { duration: number; annotations?: { type: string; description?: string }[] }[];
}

interface JsonSuite {
  title: string;
  specs?: { title: string; tests: JsonTest[] }[];
  suites?: JsonSuite[];
}

function outcomes(suite: JsonSuite, path: string[] = []): TestOutcome[] {
  const here = suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path;
  return [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests.map((test) => {
        const annotations = [...test.annotations, ...test.results.flatMap((r) => r.annotations ?? [])];
        return {
          project: test.projectName,
          title: [...here, spec.title].join(' › '),
          failed: test.status === 'unexpected',
          property: spec.title.includes('@property'),
          seed: annotations.find((a) => a.type === 'fc-seed')?.description,
          seconds: test.results.reduce((sum, r) => sum + r.duration, 0) / 1000,
        };
      }),
    ),
    ...(suite.suites ?? []).flatMap((child) => outcomes(child, here)),
  ];
}

/** One Playwright run; with projects, each is a mutant. Returns every test's outcome. */
function playwright(phase: string, args: string[], projects?: MutantProject[]): Promise<TestOutcome[]> {
  const begun = performance.now();
  const output = join(work, `run-${++runs}.json`);
  const reporters = projects ? `json,${projectPath('lib/report/mutation-progress-reporter.ts')}` : 'json';
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [PLAYWRIGHT, 'test', `--reporter=${reporters}`, '--workers=2', ...args],
      {
        env: {
          ...process.env,
          PLAYWRIGHT_JSON_OUTPUT_NAME: output,
          FC_SEED: seed,
          CLM_REPORTS_DIR: join(work, 'reports'),
          CLM_MUTATION_PHASE: phase,
          ...(projects ? { CLM_MUTANTS: JSON.stringify(projects) } : {}),
        },
        stdio: ['ignore', 'inherit', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const report = JSON.parse(readFileSync(output, 'utf8')) as { suites: JsonSuite[] };
        console.log(`${phase}: done in ${((performance.now() - begun) / 1000).toFixed(1)} s`);
        resolve(report.suites.flatMap((s) => outcomes(s)));
      } catch {
        reject(new Error(`Playwright gave no report (${phase}):\n${stderr.slice(-2000)}`));
      }
    });
  });
}

const byProject = (tests: TestOutcome[], project: string) => tests.filter((t) => t.project === project);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const groupOf = (rule: string) => rule.split('-')[0]!;

interface MutantResult {
  fault: string;
  rule: string;
  description: string;
  killed: boolean;
  killedBy: string[];
  seconds: number;
  /** Set when only property-based tests kill the fault: how many of 10 seeds killed it. */
  propertyKillRate?: { killed: number; seeds: number };
  /** For a fault a live run can see: whether the suite in live mode kills it too. */
  live?: { killed: boolean; killedBy: string[] };
  /** For a fault of a rule checked live that a live run cannot see: why. */
  notLive?: string;
}

function markdown(
  baseline: { tests: number; seconds: number },
  results: MutantResult[],
  seconds: number,
): string {
  const killed = results.filter((r) => r.killed).length;
  const groups = [...new Set(results.map((r) => groupOf(r.rule)))];
  const rated = results.filter((r) => r.propertyKillRate);
  const live = results.filter((r) => r.live);
  const liveKilled = live.filter((r) => r.live!.killed);
  return `${[
    '# Mutation run',
    '',
    `Baseline: the clean mock, ${baseline.tests} tests, all passed (${baseline.seconds.toFixed(1)} s). fast-check seed ${seed}.`,
    '',
    `Score: **${killed}/${results.length} faults killed (${((killed / results.length) * 100).toFixed(1)}%)**; the whole run took ${seconds.toFixed(0)} s.`,
    '',
    `Live mode: **${liveKilled.length}/${live.length} faults a live run can see killed** by the suite reaching the faulty mock as a live service (paced, bounded, no control of its data or clock).`,
    ...results
      .filter((r) => r.notLive)
      .map((r) => `- not visible live: ${r.fault} (${r.rule}): ${r.notLive}`),
    ...(live.length > liveKilled.length
      ? [
          '',
          `Survived live: ${live
            .filter((r) => !r.live!.killed)
            .map((r) => `${r.fault} (${r.rule})`)
            .join(', ')}.`,
        ]
      : []),
    '',
    '| Group | Killed | Score |',
    '|---|---|---|',
    ...groups.map((g) => {
      const mine = results.filter((r) => groupOf(r.rule) === g);
      const k = mine.filter((r) => r.killed).length;
      return `| ${g} | ${k}/${mine.length} | ${((k / mine.length) * 100).toFixed(0)}% |`;
    }),
    '',
    `Faults only property-based tests kill, and how many of ${SEEDS} seeds kill them at the default run count (${config.fcRuns} runs):`,
    '',
    ...(rated.length
      ? rated.map(
          (r) => `- ${r.fault} (${r.rule}): ${r.propertyKillRate!.killed}/${r.propertyKillRate!.seeds}`,
        )
      : [DEEP ? '- none' : '- not measured: `npm run mutation:deep` measures it']),
    '',
    '| Fault | Rule | What it breaks | Verdict | Live | Killed by | Test seconds |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.fault} | ${r.rule} | ${r.description.replaceAll('|', '\\|')} | ${r.killed ? 'killed' : '**survived**'} | ${r.live ? (r.live.killed ? 'killed' : '**survived**') : '-'} | ${r.killedBy.join('<br>').replaceAll('|', '\\|')} | ${r.seconds.toFixed(1)} |`,
    ),
  ].join('\n')}\n`;
}

/**
 * The live mode as a target of its own: each fault of a rule checked live is switched on in a mock
 * of its own that the suite reaches as it would a live service (paced, bounded, no control of the
 * data or the clock). The rule's tests first; a survivor meets the whole live suite.
 */
async function liveMode(results: Map<string, MutantResult>): Promise<void> {
  const liveRules = new Set(
    loadRules()
      .filter((r) => r.where.includes('both'))
      .map((r) => r.id),
  );
  const faults = FAULTS.filter((f) => liveRules.has(f.rule) && !f.notLive);
  const mocks = new Map(
    await Promise.all(
      faults.map(async (f) => [f.name, await createMock({ seed: 1, faults: [f.name] })] as const),
    ),
  );
  // The pace and budget of a live run would make this slow; the mocks have no allowance to spare.
  const settings = (name: string) => ({
    ...liveEnvFor(mocks.get(name)!),
    CLM_RATE_LIMIT: '100000',
    CLM_REQUEST_BUDGET: '100000',
  });
  const project = (name: string, grep?: string) => ({
    name: `live ${name}`,
    faults: [],
    live: settings(name),
    ...(grep ? { grep } : {}),
  });
  try {
    const record = (tests: TestOutcome[]) => {
      for (const f of faults) {
        const failing = byProject(tests, `live ${f.name}`)
          .filter((t) => t.failed)
          .map((t) => t.title);
        const result = results.get(f.name)!;
        if (!result.live?.killed) result.live = { killed: failing.length > 0, killedBy: failing };
      }
    };
    record(
      await playwright(
        'Live phase 1, the rule of each fault',
        [],
        faults.map((f) => project(f.name, escape(`@${f.rule}`))),
      ),
    );
    const survivors = faults.filter((f) => !results.get(f.name)!.live!.killed);
    if (survivors.length > 0)
      record(
        await playwright(
          'Live phase 2, the whole live suite for survivors',
          [],
          survivors.map((f) => project(f.name)),
        ),
      );
  } finally {
    await Promise.all([...mocks.values()].map((m) => m.close()));
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  console.log(
    `Mutation run: the clean baseline, then ${FAULTS.length} faults of the mock. fast-check seed ${seed}.`,
  );
  const baseline = await playwright('Baseline', ['--project=mock']);
  const baselineSeconds = (performance.now() - started) / 1000;
  const falsePositives = baseline.filter((t) => t.failed);
  if (falsePositives.length > 0) {
    console.error(
      `Baseline failed: ${falsePositives.length} test(s) fail against the clean mock (false positives):`,
    );
    for (const t of falsePositives) console.error(`  ✗ ${t.title}`);
    return 1;
  }
  console.log(
    `Baseline: ${baseline.length} tests pass against the clean mock (${baselineSeconds.toFixed(1)} s).`,
  );

  const results = new Map<string, MutantResult>(
    FAULTS.map((f) => [
      f.name,
      {
        fault: f.name,
        rule: f.rule,
        description: f.description,
        killed: false,
        killedBy: [],
        seconds: 0,
        ...(f.notLive ? { notLive: f.notLive } : {}),
      },
    ]),
  );
  const record = (tests: TestOutcome[]) => {
    for (const result of results.values()) {
      const mine = byProject(tests, result.fault);
      result.seconds += mine.reduce((sum, t) => sum + t.seconds, 0);
      const failing = mine.filter((t) => t.failed).map((t) => t.title);
      if (failing.length > 0 && !result.killed) Object.assign(result, { killed: true, killedBy: failing });
    }
  };

  const own = await playwright(
    'Phase 1, the rule of each fault',
    [],
    FAULTS.map((f) => ({ name: f.name, faults: [f.name], grep: escape(`@${f.rule}`) })),
  );
  record(own);
  const survivors = [...results.values()].filter((r) => !r.killed);
  if (survivors.length > 0)
    record(
      await playwright(
        'Phase 2, the whole suite for survivors',
        [],
        survivors.map((r) => ({ name: r.fault, faults: [r.fault] })),
      ),
    );

  const propertyKilled = [...results.values()].filter(
    (r) => r.killed && byProject(own, r.fault).every((t) => !t.failed || t.property),
  );
  if (DEEP && propertyKilled.length > 0) {
    const others = await playwright(
      'Deep phase 1, every test but the property tests',
      [],
      propertyKilled.map((r) => ({ name: r.fault, faults: [r.fault], grepInvert: '@property' })),
    );
    const onlyProperty = propertyKilled.filter((r) => !byProject(others, r.fault).some((t) => t.failed));
    if (onlyProperty.length > 0) {
      const repeated = await playwright(
        `Deep phase 2, ${SEEDS} seeds of the property tests`,
        [`--repeat-each=${SEEDS}`],
        onlyProperty.map((r) => ({
          name: r.fault,
          faults: [r.fault],
          grep: `(?=.*${escape(`@${r.rule}`)})(?=.*@property)`,
        })),
      );
      for (const r of onlyProperty) {
        const killedSeeds = new Set(
          byProject(repeated, r.fault)
            .filter((t) => t.failed)
            .map((t) => t.seed),
        );
        r.propertyKillRate = { killed: killedSeeds.size, seeds: SEEDS };
      }
    }
  }

  await liveMode(results);
  const all = [...results.values()];
  const seconds = (performance.now() - started) / 1000;
  mkdirSync(config.reportsDir, { recursive: true });
  writeFileSync(
    join(config.reportsDir, 'mutation.md'),
    markdown({ tests: baseline.length, seconds: baselineSeconds }, all, seconds),
  );
  writeFileSync(
    join(config.reportsDir, 'mutation.json'),
    `${JSON.stringify({ seed, fcRuns: config.fcRuns, baseline: { tests: baseline.length, seconds: baselineSeconds }, seconds, results: all }, null, 2)}\n`,
  );

  const survived = all.filter((r) => !r.killed);
  const killed = all.length - survived.length;
  const rated = all.filter((r) => r.propertyKillRate);
  const lines = [
    '',
    `Mutation score: ${killed}/${all.length} (${((killed / all.length) * 100).toFixed(1)}%) in ${seconds.toFixed(0)} s; baseline ${baseline.length} tests green.`,
  ];
  for (const group of [...new Set(all.map((r) => groupOf(r.rule)))]) {
    const mine = all.filter((r) => groupOf(r.rule) === group);
    lines.push(`  ${group.padEnd(6)} ${mine.filter((r) => r.killed).length}/${mine.length}`);
  }
  lines.push(
    DEEP
      ? `Property-only faults, killed over ${SEEDS} seeds: ${rated.map((r) => `${r.fault} ${r.propertyKillRate!.killed}/${SEEDS}`).join(', ') || 'none'}.`
      : 'Kill rates over seeds: not measured (npm run mutation:deep).',
  );
  const live = all.filter((r) => r.live);
  const liveSurvived = live.filter((r) => !r.live!.killed);
  lines.push(
    `Live mode (faults a live run can see, reached as a live service): ${live.length - liveSurvived.length}/${live.length} killed` +
      (liveSurvived.length ? `; survived live: ${liveSurvived.map((r) => r.fault).join(', ')}` : '.'),
  );
  lines.push(
    survived.length
      ? `Survived: ${survived.map((r) => `${r.fault} (${r.rule})`).join(', ')}`
      : 'Every fault was killed.',
  );
  lines.push(
    `Report: ${join(config.reportsDir, 'mutation.md')}`,
    `${killed + live.length - liveSurvived.length} passed, ${survived.length + liveSurvived.length} failed`,
  );
  console.log(lines.join('\n'));
  return survived.length + liveSurvived.length > 0 ? 1 : 0;
}

process.exitCode = await main();
