import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { projectPath } from '../../lib/contract/index.ts';

interface Workflow {
  jobs: Record<
    string,
    {
      steps: { run?: string; with?: Record<string, unknown> }[];
      strategy?: { matrix?: { shard?: number[] } };
    }
  >;
}

const scripts = (
  JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const dir = projectPath('.github/workflows');
const workflows = Object.fromEntries(
  readdirSync(dir).map((file) => [file, parse(readFileSync(`${dir}/${file}`, 'utf8')) as Workflow]),
);
const runs = (workflow: Workflow) =>
  Object.values(workflow.jobs).flatMap((job) => job.steps.map((step) => step.run ?? ''));

test.describe('the CI workflows', () => {
  test('are the PR gate, the nightly live run and the docs publication', () => {
    expect(Object.keys(workflows).sort()).toEqual(['nightly.yml', 'pages.yml', 'pr.yml']);
  });

  for (const [file, workflow] of Object.entries(workflows)) {
    test(`${file} calls only npm scripts that exist`, () => {
      const called = runs(workflow).flatMap((run) =>
        [...run.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!),
      );
      expect(called.length + runs(workflow).filter((r) => /npm (ci|test)\b/.test(r)).length).toBeGreaterThan(
        0,
      );
      for (const script of called) expect(scripts, `npm run ${script} in ${file}`).toHaveProperty(script);
    });
  }

  test('the PR gate lints, checks types, lints the spec, diffs it and runs npm test', () => {
    const all = runs(workflows['pr.yml']!).join('\n');
    for (const step of [
      'npm run lint',
      'npm run typecheck',
      'npm run spec:lint',
      'npm run spec:diff',
      'npm test',
    ])
      expect(all).toContain(step);
  });

  test('the nightly run is live, sharded four ways with blob reports, merged, and fails on a regression', () => {
    const nightly = workflows['nightly.yml']!;
    expect(nightly.jobs.live!.strategy?.matrix?.shard).toEqual([1, 2, 3, 4]);
    const all = runs(nightly).join('\n');
    expect(all).toContain('--project=live --shard=${{ matrix.shard }}/4');
    expect(all).toContain('merge-reports');
    expect(all).toContain('npm run conformance:regressions');
  });
});
