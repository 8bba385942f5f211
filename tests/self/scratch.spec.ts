import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { projectPath } from '../../lib/paths.ts';
import { tsxArgs } from './support/commands.ts';

// Commands and test workers make their work folders with it: nothing is left in the temporary
// directory once they end, whether they end by returning or by process.exit.
test('a scratch folder lives as long as its process, and is removed when the process ends', () => {
  for (const ending of ['', 'process.exit(3);']) {
    const script = `import { writeFileSync } from 'node:fs';
      import { join } from 'node:path';
      import { scratchFolder } from ${JSON.stringify(projectPath('lib/scratch.ts'))};
      const made = [scratchFolder('scratch-test'), scratchFolder('scratch-test')];
      for (const folder of made) writeFileSync(join(folder, 'file'), 'x');
      console.log(JSON.stringify(made));
      ${ending}`;
    const run = spawnSync(process.execPath, tsxArgs('--eval', [script]), { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(ending ? 3 : 0);
    const made = JSON.parse(run.stdout) as string[];
    expect(new Set(made).size).toBe(2);
    for (const folder of made) {
      expect(folder).toMatch(/[/\\]clm-scratch-test-[^/\\]{6}$/);
      expect(existsSync(folder), folder).toBe(false);
    }
  }
});
