import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse, stringify } from 'yaml';
import { projectPath } from '../../../lib/paths.ts';
import type { Mock } from '../../../mock/server.ts';
import { tsxArgs } from './commands.ts';
import { scratchFolder } from '../../../lib/scratch.ts';

/**
 * The values a mock holds of people (its users' and its licences' customers'): none may reach an
 * evidence store. Only values long and particular enough not to occur in other text by chance.
 */
export function personalValues(mock: Mock): string[] {
  const values: string[] = ['+44 20 7946 0000', '1 Example Street', 'EC4M 9BT'];
  for (const user of mock.state.users.values()) values.push(user.id, user.email, user.lastName);
  for (const licence of mock.state.licences.values())
    values.push(licence.contractId, ...licence.ipAccessAddresses.filter((a) => a.includes('-')));
  return values.filter((v) => v.length >= 5);
}

/** A copy of the contract (its whole openapi/ folder) in a folder of its own; returns its root file. */
export function contractCopy(
  edit?: (path: string, schema: Record<string, unknown>) => void,
  file = '',
): string {
  const dir = scratchFolder('evidence-contract');
  cpSync(projectPath('openapi'), join(dir, 'openapi'), { recursive: true });
  if (edit) {
    const path = join(dir, 'openapi', 'components', 'schemas', file);
    const schema = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    edit(path, schema);
    writeFileSync(path, stringify(schema));
  }
  return join(dir, 'openapi', 'openapi.yaml');
}

/** `npm run spec:diff -- ARGS`, in one process. */
export function specDiff(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, tsxArgs(projectPath('scripts/spec-diff.ts'), args), {
    encoding: 'utf8',
    timeout: 120_000,
  });
}
