import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '../lib/cli.ts';
import { projectNodeLines } from '../lib/node-lines.ts';
import { projectPath } from '../lib/paths.ts';
import { scratchFolder } from '../lib/scratch.ts';

/**
 * `npm run node:lines`: the project on every Node line `engines` names. Each line's `npm ci` must
 * print no engine warning; on each line but the one running this (where `npm test` runs it all),
 * the types and the self-tests that need no browser nor mock run under that line's `node`, which
 * npm's `node` package provides from the npm registry.
 */
const USAGE = `Usage: npm run node:lines

  For every Node line package.json's engines.node names (as ^MAJOR[.MINOR]): checks that npm ci
  prints no engine warning on it (a dry run of npm ci in a scratch folder); then, on each line
  other than the running node's, runs tsc and the self-tests of the client, contract, config and
  report model with that line's node (npx node@MAJOR, from the npm registry). Exits 1 when any
  step fails. .ci/run calls it beside npm test, which covers the running line in full.

  -h, --help   this text`;
commandLine(USAGE);

/** Self-tests that run in seconds and need neither a browser nor a mock server. */
const SELF_TESTS = [
  'client-checks',
  'client-credentials',
  'client-outage',
  'config',
  'contract-audit',
  'contract-expect',
  'report-findings',
  'report-levels',
  'report-model',
].map((name) => `tests/self/${name}.spec.ts`);

const here = Number(process.versions.node.split('.')[0]);
const npmCli =
  process.env.npm_execpath ??
  realpathSync(join(process.execPath, '../../lib/node_modules/npm/bin/npm-cli.js'));

function run(
  what: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): SpawnSyncReturns<string> {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: projectPath(''),
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${result.status === 0 ? 'ok  ' : 'FAIL'} ${what} (${seconds} s)`);
  if (result.status !== 0)
    console.log(`${result.stdout}${result.stderr}`.trim().split('\n').slice(-30).join('\n'));
  return result;
}

/** That line's node binary: this one, or the newest of the line from npm's `node` package. */
function nodeOf(line: number): string | undefined {
  if (line === here) return process.execPath;
  const found = run(`node@${line} from the npm registry`, 'npx', [
    '-y',
    `node@${line}`,
    '-p',
    'process.execPath',
  ]);
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** npm ci on that line, dry, in a scratch copy: the project's node_modules stay as they are. */
function engineWarnings(node: string, line: number): boolean {
  const scratch = scratchFolder('engines');
  for (const file of ['package.json', 'package-lock.json'])
    copyFileSync(projectPath(file), join(scratch, file));
  const started = Date.now();
  const result = spawnSync(node, [npmCli, 'ci', '--dry-run', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  const warned = result.status !== 0 || output.includes('EBADENGINE');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${warned ? 'FAIL' : 'ok  '} Node ${line}: npm ci prints no engine warning (${seconds} s)`);
  if (warned)
    console.log(
      output
        .split('\n')
        .filter((l) => /EBADENGINE|ERR/.test(l))
        .join('\n'),
    );
  return warned;
}

function testsOn(node: string, line: number): boolean {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const reports = join(projectPath('reports'), `node-${line}`);
  const steps = [
    run(`Node ${version}: tsc`, node, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']),
    run(
      `Node ${version}: ${SELF_TESTS.length} self-test files`,
      node,
      [
        'node_modules/@playwright/test/cli.js',
        'test',
        '--project=self',
        '--reporter=dot',
        `--output=${join(reports, 'test-results')}`,
        ...SELF_TESTS,
      ],
      // Its own reports folder: the full run's reports are left as they are.
      { CLM_REPORTS_DIR: reports, CLM_TARGET: 'mock' },
    ),
  ];
  return steps.every((s) => s.status === 0);
}

const lines = projectNodeLines();
console.log(`Node lines named by engines: ${lines.join(', ')}; running on ${process.version}.`);
let failed = false;
for (const line of lines) {
  const node = nodeOf(line);
  if (!node) {
    failed = true;
    continue;
  }
  if (engineWarnings(node, line)) failed = true;
  if (line !== here && !testsOn(node, line)) failed = true;
}
if (!lines.includes(here)) {
  console.log(`The running node (${process.version}) is not a line engines names.`);
  failed = true;
}
process.exit(failed ? 1 : 0);
