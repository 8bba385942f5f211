/*
 * The corpus of the gate on contract changes, in tests/self/spec-diff/:
 * - <area>/<case>.yaml holds `description` (the change and why it is, or is not, breaking), `expect`
 *   (each rule id the gate must report, with its level; `{}` when it must report nothing at all), and
 *   the two whole OpenAPI documents, `base` and `revision`;
 * - external/<case>/ holds base.yaml and revision.yaml, the files their `$ref`s reach, and expect.yaml
 *   (`description` and `expect` only).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectPath } from '../../lib/paths.ts';
import { SpecDocument, type Level } from '../../lib/spec-diff/index.ts';

export interface Case {
  name: string;
  description: string;
  expect: Record<string, Level>;
  /** The OpenAPI version of the base document: "3.0" or "3.1". */
  version: string;
  external: boolean;
  documents: () => [unknown, unknown];
}

/** A case file, or an external case's expect.yaml or base.yaml. */
interface CaseFile {
  openapi?: string;
  description: string;
  expect: Record<string, Level> | null;
  base?: { openapi?: string };
  revision?: unknown;
}

const root = projectPath('tests/self/spec-diff');
const read = (file: string) => parse(readFileSync(file, 'utf8')) as CaseFile;

export function loadCases(): Case[] {
  const cases: Case[] = [];
  for (const area of readdirSync(root).sort())
    for (const entry of readdirSync(join(root, area)).sort()) {
      const path = join(root, area, entry);
      const external = existsSync(join(path, 'expect.yaml'));
      if (!external && !entry.endsWith('.yaml')) continue;
      const file = read(external ? join(path, 'expect.yaml') : path);
      const base = external ? read(join(path, 'base.yaml')) : file.base;
      cases.push({
        name: `${area}/${entry.replace(/\.yaml$/, '')}`,
        description: file.description,
        expect: file.expect ?? {},
        version: String(base?.openapi).slice(0, 3),
        external,
        documents: () =>
          external
            ? [
                SpecDocument.fromFile(join(path, 'base.yaml')),
                SpecDocument.fromFile(join(path, 'revision.yaml')),
              ]
            : [file.base, file.revision],
      });
    }
  return cases;
}
