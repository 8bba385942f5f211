import { readFileSync } from 'node:fs';
import { projectPath } from './paths.ts';

/**
 * The Node major versions package.json's `engines.node` names (`^20.19 || ^22.13 || ^24` → 20, 22,
 * 24): the lines the project is tested on, read from the one place that states them.
 */
export function nodeLines(engines: string): number[] {
  const lines = engines.split('||').map((part) => /^\s*\^(\d+)(\.\d+){0,2}\s*$/.exec(part)?.[1]);
  if (lines.some((line) => line === undefined))
    throw new Error(
      `engines.node '${engines}' must name whole lines only, as ^MAJOR[.MINOR]: one per line tested`,
    );
  return lines.map(Number);
}

/** The lines of this project's own package.json. */
export function projectNodeLines(): number[] {
  const pkg = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { engines: { node: string } };
  return nodeLines(pkg.engines.node);
}
