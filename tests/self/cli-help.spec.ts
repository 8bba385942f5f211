import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { projectPath } from '../../lib/paths.ts';
import { tsxArgs } from './support/commands.ts';

/**
 * The project's own commands, read from package.json's scripts: every file run with tsx or bash,
 * once (`mutation:deep` runs the file of `mutation`). Tools (playwright, eslint, tsc, …) and
 * `npm run` steps are not ours to test, so a new script is covered the moment it is added.
 */
function commands(): { file: string; runner: 'tsx' | 'bash'; scripts: string[] }[] {
  const { scripts } = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const found = new Map<string, { file: string; runner: 'tsx' | 'bash'; scripts: string[] }>();
  for (const [name, line] of Object.entries(scripts))
    for (const step of line.split(/&&|\|\||;/)) {
      const words = step.trim().split(/\s+/);
      while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) words.shift();
      const [runner, file] = words;
      if ((runner !== 'tsx' && runner !== 'bash') || !file) continue;
      const entry = found.get(file) ?? { file, runner, scripts: [] };
      entry.scripts.push(name);
      found.set(file, entry);
    }
  return [...found.values()];
}

/** Commands that answer `--help` but not `-h`, where `-h` would start the real work. */
const NO_SHORT_HELP: Record<string, string> = {
  'scripts/mutation.ts': 'checks process.argv for --help only; -h would start the whole mutation run',
};

const COMMANDS = commands();

test.describe('every command of package.json answers --help', () => {
  test('finds the commands in package.json', () => {
    const files = COMMANDS.map((c) => c.file);
    for (const file of ['mock/cli.ts', 'scripts/spec-diff.ts', 'scripts/setup-browser.sh'])
      expect(files).toContain(file);
  });

  for (const { file, runner, scripts } of COMMANDS)
    for (const flag of ['--help', '-h']) {
      test(`${file} (npm run ${scripts.join(', ')}) prints its usage on ${flag} and exits 0`, () => {
        test.skip(flag === '-h' && file in NO_SHORT_HELP, NO_SHORT_HELP[file]);
        const run =
          runner === 'bash'
            ? spawnSync('bash', [file, flag], { encoding: 'utf8', timeout: 60_000 })
            : spawnSync(process.execPath, tsxArgs(file, [flag]), { encoding: 'utf8', timeout: 60_000 });
        expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
        expect(
          run.stdout.split('\n').some((line) => line.startsWith('Usage')),
          run.stdout,
        ).toBe(true);
      });
    }
});
