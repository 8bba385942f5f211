import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import type { RuleFault, RuleSources, RuleTest } from '../lib/docs/rule-page.ts';
import { projectPath } from '../lib/paths.ts';
import type { MutationReport } from '../lib/report/mutation.ts';
import { FAULTS } from '../mock/faults/index.ts';
import { outcomes } from '../rig/mutation/outcomes.ts';

/**
 * Where the rule pages' tests and faults come from: Playwright's own listing of the suite, read
 * for rule ids as the mutation run reads a report (titles and tags), and the mutation report when
 * one is in the reports folder, else the mock's fault catalogue.
 */
const CACHE = projectPath('node_modules/.cache/clm-docs');

/**
 * A hash of the tests and the runner's configuration: the listing holds while they do. The suite's
 * own tests (tests/self) are not listed and no conformance test loads them: an edit there keeps it.
 */
function testsHash(): string {
  const hash = createHash('sha256').update(readFileSync(projectPath('playwright.config.ts')));
  const self = projectPath('tests/self');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name);
      if (file === self) continue;
      if (statSync(file).isDirectory()) walk(file);
      else if (name.endsWith('.ts')) hash.update(file).update(readFileSync(file));
    }
  };
  walk(projectPath('tests'));
  return hash.digest('hex').slice(0, 16);
}

/** Every conformance test with the rules it names, as `playwright test --list` sees them. */
function listTests(): (RuleTest & { rules: string[] })[] {
  const file = join(CACHE, `tests-${testsHash()}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as (RuleTest & { rules: string[] })[];
  // A listing run inside a test run must not take the outer run's worker for its own, nor write its
  // JSON where the outer run's reporter was told to (it must come to stdout).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(TEST_|PW_TEST|PLAYWRIGHT_JSON_OUTPUT_)/.test(k)),
  );
  const listed = spawnSync(
    process.execPath,
    [
      projectPath('node_modules/@playwright/test/cli.js'),
      'test',
      '--list',
      '--reporter=json',
      '--project=mock',
    ],
    { cwd: projectPath('.'), env, encoding: 'utf8', maxBuffer: 256 << 20 },
  );
  if (listed.status !== 0) throw new Error(`playwright test --list: ${listed.stderr.split('\n')[0]}`);
  const report = JSON.parse(listed.stdout) as JSONReport;
  const tests = report.suites.flatMap((suite) =>
    outcomes(suite).map((o) => ({
      title: o.title,
      file: suite.file,
      rules: [...new Set([...o.rules, ...o.tagged])],
    })),
  );
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(file, JSON.stringify(tests));
  return tests;
}

/** The faults of each rule: the mutation run's outcomes when its report is there, else the catalogue. */
function faultsOf(reportsDir: string): { byRule: (rule: string) => RuleFault[]; from: string } {
  const file = join(reportsDir, 'mutation.json');
  if (existsSync(file)) {
    const report = JSON.parse(readFileSync(file, 'utf8')) as MutationReport;
    return {
      from: `the mutation run in mutation.json (seed ${report.seed}, ${report.results.length} faults, mock and live)`,
      byRule: (rule) =>
        report.results
          .filter((r) => r.rule === rule)
          .map((r) => ({
            fault: r.fault,
            kind: r.kind,
            description: r.description,
            mock: { killed: r.killed, killedBy: r.killedBy },
            ...(r.live ? { live: r.live } : {}),
            ...(r.notLive ? { notLive: r.notLive } : {}),
          })),
    };
  }
  return {
    from: 'the mock’s fault catalogue: no mutation report yet (npm run mutation), so which tests catch each is not shown',
    byRule: (rule) =>
      FAULTS.filter((f) => f.rule === rule).map((f) => ({
        fault: f.name,
        kind: f.kind,
        description: f.description,
      })),
  };
}

export function ruleSources(reportsDir: string): RuleSources {
  const tests = listTests();
  const faults = faultsOf(reportsDir);
  return {
    tests: (rule) => tests.filter((t) => t.rules.includes(rule)).map(({ title, file }) => ({ title, file })),
    faults: faults.byRule,
    faultsFrom: faults.from,
  };
}
