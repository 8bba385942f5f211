import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { projectPath } from '../lib/contract/index.ts';
import { FAULTS } from '../mock/faults.ts';

/**
 * The suite's power, proved: the clean mock first (every test must pass, or the run fails on a
 * false positive), then the suite against the mock with each fault switched on; a fault is killed
 * when a test fails. Each mutant is a Playwright project, so one run decides them all:
 *   1. each mutant runs the tests of the rule its fault breaks (most are killed there, cheaply);
 *   2. a survivor runs the whole suite;
 *   3. a mutant killed only by property-based tests runs every other test, to be sure of that;
 *   4. such mutants run their property tests over 10 consecutive seeds: the kill rate.
 */

const SEEDS = 10;
const PLAYWRIGHT = projectPath('node_modules/@playwright/test/cli.js');
const config = loadConfig();
const seed = String(config.fcSeed);
const work = mkdtempSync(join(tmpdir(), 'clm-mutation-'));
let runs = 0;

interface MutantProject {
  name: string;
  faults: string[];
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
}

function markdown(
  baseline: { tests: number; seconds: number },
  results: MutantResult[],
  seconds: number,
): string {
  const killed = results.filter((r) => r.killed).length;
  const groups = [...new Set(results.map((r) => groupOf(r.rule)))];
  const rated = results.filter((r) => r.propertyKillRate);
  return `${[
    '# Mutation run',
    '',
    `Baseline: the clean mock, ${baseline.tests} tests, all passed (${baseline.seconds.toFixed(1)} s). fast-check seed ${seed}.`,
    '',
    `Score: **${killed}/${results.length} faults killed (${((killed / results.length) * 100).toFixed(1)}%)**; the whole run took ${seconds.toFixed(0)} s.`,
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
      : ['- none']),
    '',
    '| Fault | Rule | What it breaks | Verdict | Killed by | Test seconds |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.fault} | ${r.rule} | ${r.description.replaceAll('|', '\\|')} | ${r.killed ? 'killed' : '**survived**'} | ${r.killedBy.join('<br>').replaceAll('|', '\\|')} | ${r.seconds.toFixed(1)} |`,
    ),
  ].join('\n')}\n`;
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
      { fault: f.name, rule: f.rule, description: f.description, killed: false, killedBy: [], seconds: 0 },
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
  if (propertyKilled.length > 0) {
    const others = await playwright(
      'Phase 3, every test but the property tests',
      [],
      propertyKilled.map((r) => ({ name: r.fault, faults: [r.fault], grepInvert: '@property' })),
    );
    const onlyProperty = propertyKilled.filter((r) => !byProject(others, r.fault).some((t) => t.failed));
    if (onlyProperty.length > 0) {
      const repeated = await playwright(
        `Phase 4, ${SEEDS} seeds of the property tests`,
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
    `Property-only faults, killed over ${SEEDS} seeds: ${rated.map((r) => `${r.fault} ${r.propertyKillRate!.killed}/${SEEDS}`).join(', ') || 'none'}.`,
  );
  lines.push(
    survived.length
      ? `Survived: ${survived.map((r) => `${r.fault} (${r.rule})`).join(', ')}`
      : 'Every fault was killed.',
  );
  lines.push(
    `Report: ${join(config.reportsDir, 'mutation.md')}`,
    `${killed} passed, ${survived.length} failed`,
  );
  console.log(lines.join('\n'));
  return survived.length > 0 ? 1 : 0;
}

process.exitCode = await main();
