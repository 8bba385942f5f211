import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONReport } from '@playwright/test/reporter';
import type { TargetKind } from '../../lib/config.ts';
import { projectPath } from '../../lib/paths.ts';
import { outcomes, type Outcome } from './outcomes.ts';
import { PLAN_VARIABLE, type PlanFile } from './plan.ts';
import { phaseProfile, type PhaseProfile } from './profile.ts';

const PLAYWRIGHT = projectPath('node_modules/@playwright/test/cli.js');
const REPORTERS = `json,${projectPath('rig/mutation/progress-reporter.ts')}`;

/** One Playwright run of a mutation run: what it ran and how long it took. */
export interface Phase {
  name: string;
  faults: number;
  seconds: number;
}

export interface PhaseOptions {
  project: TargetKind;
  env?: Record<string, string>;
  /** The plan, when faults are on. */
  plan?: PlanFile;
  /** How many faults the plan holds, for the log. */
  faults?: number;
  /** Stop each fault at its first kill: the runner's default unless said here. */
  stopAtFirstKill?: boolean;
}

/**
 * The Playwright runs of a mutation run, in one work folder, with one fast-check seed and worker
 * count. Each run's output is printed in one block when it ends, so runs may overlap.
 */
export class PlaywrightRunner {
  readonly phases: Phase[] = [];
  readonly profiles: PhaseProfile[] = [];
  private runs = 0;

  constructor(
    private readonly settings: {
      work: string;
      workers: number;
      seed: string;
      /** Each fault stops at its first kill; `--deep` runs every copy, to know every test that kills. */
      stopAtFirstKill: boolean;
    },
  ) {}

  /** One Playwright run of a project, with a plan when faults are on; every test's outcome. */
  run(name: string, options: PhaseOptions): Promise<Outcome[]> {
    const { work, workers, seed } = this.settings;
    const id = ++this.runs;
    const output = join(work, `run-${id}.json`);
    const planFile = join(work, `plan-${id}.json`);
    if (options.plan) {
      const stop = options.stopAtFirstKill ?? this.settings.stopAtFirstKill;
      const kills = stop ? join(work, `kills-${id}.txt`) : undefined;
      writeFileSync(planFile, JSON.stringify({ ...options.plan, ...(kills ? { kills } : {}) }));
    }
    // A fault's kill is its first attempt: no run again at the end, even of what an outage stopped.
    const args = [
      PLAYWRIGHT,
      'test',
      `--project=${options.project}`,
      `--reporter=${REPORTERS}`,
      '--retries=0',
    ];
    const env = {
      ...process.env,
      PLAYWRIGHT_JSON_OUTPUT_NAME: output,
      FC_SEED: seed,
      // A kill is a kill: no need to shrink the counterexample.
      FC_NO_SHRINK: 'true',
      CLM_REPORTS_DIR: join(work, `reports-${id}`),
      ...(options.plan ? { [PLAN_VARIABLE]: planFile } : {}),
      ...options.env,
    };
    const header = `${name}${options.faults ? `: ${options.faults} faults` : ''}`;
    const begun = performance.now();
    const begunAt = Date.now();
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...args, `--workers=${workers}`], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
      child.on('error', reject);
      child.on('close', () => {
        const seconds = (performance.now() - begun) / 1000;
        console.log(`${header}\n${stdout}${name}: done in ${seconds.toFixed(1)} s`.replace(/\n+/g, '\n'));
        let report: JSONReport;
        try {
          report = JSON.parse(readFileSync(output, 'utf8')) as JSONReport;
        } catch {
          reject(new Error(`Playwright gave no report (${name}):\n${stderr}`));
          return;
        }
        this.phases.push({ name, faults: options.faults ?? 0, seconds });
        this.profiles.push(phaseProfile(name, begunAt, seconds, report));
        resolve(report.suites.flatMap((s) => outcomes(s)));
      });
    });
  }
}
