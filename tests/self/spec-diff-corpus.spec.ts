/*
 * The breaking-change gate against a corpus of small cases, one change each, in tests/self/spec-diff/:
 * - <area>/<case>.yaml holds `description` (the change and why it is, or is not, breaking), `expect`
 *   (each rule id the gate must report, with its level; `{}` when it must report nothing at all), and
 *   the two whole OpenAPI documents, `base` and `revision`;
 * - external/<case>/ holds base.yaml and revision.yaml, the files their `$ref`s reach, and expect.yaml
 *   (`description` and `expect` only).
 * The gate may report more warnings and infos than a case expects, never another error.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { projectPath } from '../../lib/paths.ts';
import { compareContracts, RULES, SpecDocument, type Level } from '../../lib/spec-diff/index.ts';

interface Case {
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

function loadCases(): Case[] {
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

const cases = loadCases();
const ruleIds = new Set(RULES.map((r) => r.id));

test.describe.configure({ mode: 'parallel' });

test.describe('the breaking-change gate against its corpus', () => {
  test('the corpus holds at least 150 cases, in 3.0 and 3.1, recursive and external', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.version))).toEqual(new Set(['3.0', '3.1']));
    expect(cases.filter((c) => c.name.startsWith('recursive/')).length).toBeGreaterThanOrEqual(3);
    expect(cases.filter((c) => c.external).length).toBeGreaterThanOrEqual(3);
  });

  for (const c of cases)
    test(`${c.name}: ${c.description}`, () => {
      const changes = compareContracts(...c.documents());
      const reported = changes.map((x) => `${x.level} ${x.id} at ${x.pointer}: ${x.text}`).join('\n');
      const expected = Object.entries(c.expect);
      if (expected.length === 0) expect(reported, 'no change at all').toBe('');
      for (const [id, level] of expected) {
        expect.soft(ruleIds.has(id), `${id} is a rule of the table`).toBe(true);
        const levels = changes.filter((x) => x.id === id).map((x) => x.level);
        expect.soft(levels, `${id} reported as ${level}; reported:\n${reported}`).toContain(level);
      }
      const unexpected = changes.filter((x) => x.level === 'error' && !Object.hasOwn(c.expect, x.id));
      expect(
        unexpected.map((x) => x.id),
        `no error that is not expected; reported:\n${reported}`,
      ).toEqual([]);
    });
});
