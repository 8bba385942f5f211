import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const folders: string[] = [];

/**
 * A fresh folder in the system's temporary directory (`clm-<name>-XXXXXX`), removed when this
 * process ends: a command or a test worker leaves nothing behind, however many it made.
 */
export function scratchFolder(name: string): string {
  if (folders.length === 0)
    process.once('exit', () => {
      for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    });
  const folder = mkdtempSync(join(tmpdir(), `clm-${name}-`));
  folders.push(folder);
  return folder;
}
