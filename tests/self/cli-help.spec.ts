import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { commandLine } from '../../lib/cli.ts';
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

const COMMANDS = commands();

/**
 * Whether a command reads its arguments with lib/cli.ts's `commandLine`, which answers `-h` exactly
 * as `--help` (proved below): its `-h` needs no process of its own. Any other command is asked both.
 */
const parsesWithCommandLine = (file: string) =>
  file.endsWith('.ts') && /\bcommandLine\(/.test(readFileSync(projectPath(file), 'utf8'));

test.describe('every command of package.json answers --help', () => {
  test('finds the commands in package.json', () => {
    const files = COMMANDS.map((c) => c.file);
    for (const file of ['mock/cli.ts', 'scripts/spec-diff.ts', 'scripts/setup-browser.sh'])
      expect(files).toContain(file);
  });

  test('commandLine answers -h as --help: the usage, exit 0, before any other argument is read', () => {
    for (const flag of ['-h', '--help']) {
      const printed: unknown[] = [];
      // Replaced for the call and put back as they were: the process stays this worker's.
      const [log, exit] = [
        Object.getOwnPropertyDescriptor(console, 'log')!,
        Object.getOwnPropertyDescriptor(process, 'exit')!,
      ];
      Object.defineProperty(console, 'log', { value: (...args: unknown[]) => void printed.push(...args) });
      Object.defineProperty(process, 'exit', {
        value: (code?: number) => {
          throw new Error(`exit ${code}`);
        },
      });
      try {
        expect(() => commandLine('Usage: x', {}, { args: ['--no-such-option', flag] })).toThrow('exit 0');
      } finally {
        Object.defineProperty(console, 'log', log);
        Object.defineProperty(process, 'exit', exit);
      }
      expect(printed).toEqual(['Usage: x']);
    }
  });

  for (const { file, runner, scripts } of COMMANDS)
    for (const flag of parsesWithCommandLine(file) ? ['--help'] : ['--help', '-h']) {
      test(`${file} (npm run ${scripts.join(', ')}) prints its usage on ${flag} and exits 0`, () => {
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
