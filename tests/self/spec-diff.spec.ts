import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';
import { contractChanges } from '../../lib/contract/diff.ts';
import { projectPath } from '../../lib/contract/index.ts';

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return --
   the fixtures are plain YAML documents, edited freely by each case */
type Doc = Record<string, any>;
const base = parse(readFileSync(projectPath('tests/self/fixtures/diff/base.yaml'), 'utf8')) as Doc;
const op = (doc: Doc) => doc.paths['/widgets/{widgetId}'].get;
const body = (doc: Doc) => op(doc).responses['200'].content['application/json'].schema;

const cases: [string, (doc: Doc) => void, boolean][] = [
  ['a removed operation', (d) => delete d.paths['/widgets'], true],
  ['a removed parameter', (d) => op(d).parameters.pop(), true],
  [
    'a removed response field',
    (d) => {
      delete body(d).properties.name;
      body(d).required = ['id'];
    },
    true,
  ],
  ['a removed enum value', (d) => (op(d).parameters[1].schema.enum = ['full']), true],
  [
    'a narrowed parameter type',
    (d) => (op(d).parameters[0].schema = { type: 'string', format: 'uuid' }),
    true,
  ],
  [
    'a new required parameter',
    (d) => op(d).parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } }),
    true,
  ],
  ['a removed status', (d) => delete op(d).responses['404'], true],
  ['an added optional response field', (d) => (body(d).properties.colour = { type: 'string' }), false],
  [
    'an added operation',
    (d) =>
      (d.paths['/gadgets'] = {
        get: { operationId: 'listGadgets', responses: { '200': { description: 'ok' } } },
      }),
    false,
  ],
  ['a new summary', (d) => (op(d).summary = 'Get a widget'), false],
];

test.describe('the breaking-change gate', () => {
  test('finds no change between a document and itself', () => {
    expect(contractChanges(base, structuredClone(base))).toEqual([]);
  });

  for (const [what, change, breaking] of cases) {
    test(`${breaking ? 'catches' : 'lets through'} ${what}`, () => {
      const after = structuredClone(base);
      change(after);
      const changes = contractChanges(base, after);
      expect(changes.length, 'the change is seen').toBeGreaterThan(0);
      expect(
        changes.some((c) => c.kind === 'breaking'),
        JSON.stringify(changes),
      ).toBe(breaking);
    });
  }

  test('reports no breaking change of the contract against its own commit', () => {
    const run = spawnSync('npx', ['tsx', 'scripts/spec-diff.ts', 'HEAD'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('No breaking change for clients.');
  });

  test('refuses a ref that does not exist', () => {
    const run = spawnSync('npx', ['tsx', 'scripts/spec-diff.ts', 'no-such-ref-123'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('"no-such-ref-123" is not a git ref');
  });
});
