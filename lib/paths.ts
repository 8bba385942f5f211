import { fileURLToPath } from 'node:url';

/** The project's root folder (the one with package.json), with a trailing separator. */
export const projectRoot = fileURLToPath(new URL('../', import.meta.url));

/** A path inside the project, however the process was started. */
export function projectPath(relative: string): string {
  return fileURLToPath(new URL(relative, new URL('../', import.meta.url)));
}
