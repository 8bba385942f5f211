import { pathToFileURL } from 'node:url';
import { projectPath } from '../../../lib/paths.ts';

/**
 * Node's arguments that run a TypeScript file as `tsx FILE` does, in one process: tsx's loader (the
 * module `tsx` exports) imported into node itself, from any folder. `npx tsx FILE` starts three
 * processes (npx, tsx's command, then node with that same loader): about twice the time, for the
 * same run of the same file.
 */
export const TSX_LOADER = ['--import', pathToFileURL(projectPath('node_modules/tsx/dist/loader.mjs')).href];

/** `tsx FILE ARGS…` as node's arguments: spawn `process.execPath` with them. */
export function tsxArgs(file: string, args: readonly string[] = []): string[] {
  return [...TSX_LOADER, file, ...args];
}

/** `playwright ARGS…` as node's arguments: the project's own Playwright, without npx in front. */
export function playwrightArgs(args: readonly string[]): string[] {
  return [projectPath('node_modules/@playwright/test/cli.js'), ...args];
}
