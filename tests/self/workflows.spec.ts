import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { nodeLines } from '../../lib/node-lines.ts';
import { projectPath } from '../../lib/paths.ts';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}

interface Workflow {
  name: string;
  on: Record<string, { workflows?: string[]; types?: string[] } | null>;
  permissions?: Record<string, string>;
  jobs: Record<
    string,
    {
      steps: Step[];
      env?: Record<string, unknown>;
      strategy?: { matrix?: { shard?: number[]; node?: number[] } };
    }
  >;
}

const pkg = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
};
const { scripts } = pkg;
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

  test('the nightly run is live, sharded four ways with blob reports, merged, and fails on its verdict or a regression', () => {
    const nightly = workflows['nightly.yml']!;
    expect(nightly.jobs.live!.strategy?.matrix?.shard).toEqual([1, 2, 3, 4]);
    const all = runs(nightly).join('\n');
    expect(all).toContain('--project=live --shard=${{ matrix.shard }}/4');
    expect(all).toContain('merge-reports');
    expect(all).toContain('npm run conformance:regressions');
    expect(all).toContain('npm run conformance:verdict');
  });
});

test.describe('the Node lines tested', () => {
  test('the engines field names whole lines, which are the lines tested', () => {
    expect(nodeLines('^20.19 || ^22.13 || ^24')).toEqual([20, 22, 24]);
    // An open range claims lines nobody has tested yet.
    expect(() => nodeLines('>=22')).toThrow(/whole lines only/);
  });

  test('the PR gate runs on every Node line the engines field names; the other jobs on one of them', () => {
    const lines = nodeLines(pkg.engines.node);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const gate = workflows['pr.yml']!.jobs.gate!;
    expect(gate.strategy?.matrix?.node).toEqual(lines);
    for (const [file, workflow] of Object.entries(workflows))
      for (const job of Object.values(workflow.jobs))
        for (const step of job.steps.filter((s) => s.uses?.startsWith('actions/setup-node'))) {
          const version = step.with?.['node-version'];
          if (job === gate) expect(version, file).toBe('${{ matrix.node }}');
          else expect(lines, `${file}: node-version ${String(version)}`).toContain(version);
        }
  });

  test('.ci/run tests the other Node lines beside npm test on its own', () => {
    const ci = readFileSync(projectPath('.ci/run'), 'utf8');
    expect(scripts['node:lines']).toBe('tsx scripts/node-lines.ts');
    expect(ci.indexOf('npm run node:lines')).toBeGreaterThan(ci.indexOf('npm ci'));
    expect(ci).toMatch(/^npm test$/m);
  });
});

test.describe('the nightly report', () => {
  test('keeps the run history in the cache around the merge, draws the trend, then gates', () => {
    const steps = workflows['nightly.yml']!.jobs.report!.steps;
    const at = (find: (s: Step) => boolean, what: string) => {
      const i = steps.findIndex(find);
      expect(i, what).toBeGreaterThanOrEqual(0);
      return i;
    };
    const restore = at((s) => s.uses?.startsWith('actions/cache/restore@') === true, 'cache restore');
    const merge = at((s) => s.run?.includes('merge-reports') === true, 'merge-reports');
    const verdict = at((s) => s.run === 'npm run conformance:verdict', 'the verdict, reading the report');
    const save = at((s) => s.uses?.startsWith('actions/cache/save@') === true, 'cache save');
    const trend = at((s) => s.run === 'npm run report:trend', 'report:trend');
    const upload = at((s) => s.uses?.startsWith('actions/upload-artifact@') === true, 'upload');
    const gate = at((s) => s.run === 'npm run conformance:regressions', 'the gate, reading the history');
    // The merge appends tonight's run to the restored history; the gate reads what was saved.
    expect([restore, merge, verdict, save, trend, upload, gate]).toEqual(
      [restore, merge, verdict, save, trend, upload, gate].sort((a, b) => a - b),
    );
    expect(gate).toBe(steps.length - 1);
    expect(steps[restore]!.with).toMatchObject({
      path: 'reports/history.jsonl',
      'restore-keys': 'clm-history-',
    });
    expect(String(steps[restore]!.with?.key)).toMatch(/^clm-history-\$\{\{ github\.run_id \}\}/);
    expect(steps[save]!.with).toMatchObject({
      path: 'reports/history.jsonl',
      key: steps[restore]!.with?.key,
    });
    // A night that failed or stopped short (the merge exits 1 or 3) is kept too, and its reports uploaded.
    for (const i of [save, trend, upload]) expect(steps[i]!.if).toContain('always()');
    expect(steps[upload]!.with?.path).toBe('reports/');
    expect(runs(workflows['nightly.yml']!).join('\n')).not.toContain('gh run download');
  });

  test('reads the merged verdict: an incomplete night does not pass, and the gate still runs', () => {
    const report = workflows['nightly.yml']!.jobs.report!;
    const steps = report.steps;
    const merge = steps.findIndex((s) => s.run?.includes('merge-reports') === true);
    const verdict = steps.find((s) => s.run === 'npm run conformance:verdict');
    const gate = steps.find((s) => s.run === 'npm run conformance:regressions');
    // The merge exits 3 on an incomplete run: both must run after it, and may fail the night.
    for (const step of [verdict, gate]) {
      expect(step?.if, step?.run).toContain('always()');
      expect(step?.['continue-on-error'], step?.run).toBeUndefined();
    }
    expect(steps[merge]!['continue-on-error']).toBeUndefined();
    // It reads the report the merge wrote: the default reports folder, in both.
    for (const env of [report.env, steps[merge]!.env, verdict?.env])
      expect(env?.CLM_REPORTS_DIR, 'a reports folder of its own').toBeUndefined();
    expect(verdict?.with).toBeUndefined();
    expect(scripts['conformance:verdict']).toBe('tsx scripts/verdict.ts');
  });
});

test.describe('the evidence store', () => {
  test('the nightly keeps it in the cache around the merge, and the PR gate weighs changes against it', () => {
    const steps = workflows['nightly.yml']!.jobs.report!.steps;
    const cached = (kind: string) =>
      steps.findIndex(
        (s) => s.uses?.startsWith(`actions/cache/${kind}@`) === true && s.with?.path === 'reports/evidence',
      );
    const merge = steps.findIndex((s) => s.run?.includes('merge-reports') === true);
    expect(cached('restore')).toBeGreaterThanOrEqual(0);
    expect(cached('restore')).toBeLessThan(merge);
    expect(cached('save')).toBeGreaterThan(merge);
    expect(steps[cached('restore')]!.with?.['restore-keys']).toBe('clm-evidence-');
    expect(steps[cached('save')]!.with?.key).toBe(steps[cached('restore')]!.with?.key);
    expect(steps[cached('save')]!.if).toContain('always()');
    const gate = workflows['pr.yml']!.jobs.gate!.steps;
    const restore = gate.findIndex((s) => s.with?.path === 'reports/evidence');
    const diff = gate.findIndex((s) => s.run?.includes('npm run spec:diff') === true);
    expect(restore).toBeGreaterThanOrEqual(0);
    expect(restore).toBeLessThan(diff);
    expect(gate[restore]!.with?.['restore-keys']).toBe('clm-evidence-');
    for (const source of ['--evidence contract', '--evidence mock', '--evidence reports/evidence'])
      expect(gate[diff]!.run).toContain(source);
  });
});

test.describe('the published docs', () => {
  test('take the last nightly’s merged report, not a run of their own, and rebuild after each night', () => {
    const pages = workflows['pages.yml']!;
    const nightly = workflows['nightly.yml']!;
    const steps = pages.jobs.build!.steps;
    expect(runs(pages).join('\n')).not.toMatch(/npm run conformance|playwright test/);
    const upload = nightly.jobs.report!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.with?.path).toBe('reports/');
    const download = steps.findIndex((s) => s.uses?.startsWith('actions/download-artifact@'));
    expect(steps[download]?.with).toMatchObject({ name: upload?.with?.name, path: 'reports/' });
    expect(String(steps[download]?.with?.['run-id'])).toContain('steps.nightly.outputs.id');
    // No report (none yet, or expired) still publishes the docs, which then say why they show no verdicts.
    expect(steps[download]?.['continue-on-error']).toBe(true);
    expect(steps.findIndex((s) => s.run === 'npm run docs')).toBeGreaterThan(download);
    expect(pages.on.workflow_run).toEqual({ workflows: [nightly.name], types: ['completed'] });
    expect(pages.permissions?.actions).toBe('read');
  });

  test('publish the changelog made from the whole history of openapi/, with the docs', () => {
    const steps = workflows['pages.yml']!.jobs.build!.steps;
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
    const docs = steps.findIndex((s) => s.run === 'npm run docs');
    const cache = steps.findIndex((s) => s.with?.path === 'node_modules/.cache/clm-changelog');
    expect(cache).toBeGreaterThan(-1);
    expect(cache).toBeLessThan(docs);
    const upload = steps.findIndex((s) => s.uses?.startsWith('actions/upload-pages-artifact@'));
    expect(upload).toBeGreaterThan(docs);
    expect(steps[upload]?.with?.path).toBe('reports/docs/');
  });
});
