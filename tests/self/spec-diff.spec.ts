import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse, stringify } from 'yaml';
import { contractChanges, groupChanges } from '../../lib/contract/diff.ts';
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

  test('says what changed in words, by operation', () => {
    const after = structuredClone(base);
    op(after).parameters[1].schema.enum = ['full'];
    delete body(after).properties.name;
    body(after).required = ['id'];
    op(after).parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } });
    delete after.paths['/widgets'];
    const lines = contractChanges(base, after).map((c) => `${c.scope} | ${c.text}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        'getWidget GET /widgets/{widgetId} | query parameter `view`: enum value `brief` removed',
        'getWidget GET /widgets/{widgetId} | query parameter `tenant` added (required)',
        'getWidget GET /widgets/{widgetId} | response 200: property `name` removed',
        'getWidget GET /widgets/{widgetId} | response 200: `name` no longer required',
        'listWidgets GET /widgets | operation removed',
      ]),
    );
  });

  test('groups by severity, breaking first, then by operation', () => {
    const after = structuredClone(base);
    op(after).summary = 'Get a widget';
    body(after).properties.colour = { type: 'string' };
    op(after).deprecated = true;
    delete after.paths['/widgets'];
    const groups = groupChanges(contractChanges(base, after));
    expect(groups.map((g) => g.kind)).toEqual(['breaking', 'deprecated', 'non-breaking', 'annotation']);
    expect(groups[0]!.scopes.map((s) => s.scope)).toEqual(['listWidgets GET /widgets']);
    expect(groups[1]!.scopes[0]!.changes.map((c) => c.text)).toEqual(['marked deprecated']);
  });

  test('collapses the same change in several responses into one line with a count', () => {
    const error = () => ({
      description: 'Refused.',
      content: {
        'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } },
      },
    });
    const before = structuredClone(base);
    for (const status of ['400', '403', '429']) op(before).responses[status] = error();
    const after = structuredClone(before);
    for (const status of ['400', '403', '429'])
      delete op(after).responses[status].content['application/json'].schema.properties.message;
    const [breaking] = groupChanges(contractChanges(before, after));
    expect(breaking!.count).toBe(3);
    expect(breaking!.scopes[0]!.changes).toEqual([
      expect.objectContaining({ text: 'responses 400, 403, 429: property `message` removed', count: 3 }),
    ]);
    expect(breaking!.scopes[0]!.changes[0]!.where).toHaveLength(3);
  });

  test('reports no breaking change of the contract against its own commit', () => {
    const run = spawnSync('npx', ['tsx', 'scripts/spec-diff.ts', 'HEAD'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('No breaking change for clients.');
  });

  test('summarises a changed contract as text, Markdown and JSON, breaking first', () => {
    // A repository whose contract had one more operation, one less, no deprecation on listPagesV1
    // and another description: against the contract now, one change of each severity.
    const repo = mkdtempSync(join(tmpdir(), 'clm-spec-diff-test-'));
    cpSync(projectPath('openapi'), join(repo, 'openapi'), { recursive: true });
    const edit = (file: string, change: (doc: Doc) => void) => {
      const doc = parse(readFileSync(join(repo, file), 'utf8')) as Doc;
      change(doc);
      writeFileSync(join(repo, file), stringify(doc));
    };
    edit('openapi/openapi.yaml', (d) => {
      d.info.description = 'An earlier description.';
      delete d.paths['/trial-exclusions/ip-addresses'];
      d.paths['/legacy'] = { get: { operationId: 'getLegacy', responses: { '200': { description: 'ok' } } } };
    });
    edit('openapi/paths/site_v1_pages.yaml', (d) => delete d.get.deprecated);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'before');

    const run = spawnSync(
      process.execPath,
      [projectPath('node_modules/tsx/dist/cli.mjs'), projectPath('scripts/spec-diff.ts'), 'HEAD'].concat([
        '--markdown',
        'diff.md',
        '--json',
        'diff.json',
      ]),
      { cwd: repo, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(1);
    const text = run.stdout;
    const order = ['Breaking (', 'Deprecated (', 'Non-breaking (', 'Annotation ('].map((h) =>
      text.indexOf(`\n${h}`),
    );
    expect(
      order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)),
      text,
    ).toBe(true);
    expect(text).toContain('  getLegacy GET /legacy\n    operation removed\n');
    expect(text).toContain('  listPagesV1 GET /site/v1/pages\n    marked deprecated\n');
    expect(text).toContain(
      '  listTrialExclusionIpAddresses GET /trial-exclusions/ip-addresses\n    operation added\n',
    );
    expect(text).toContain('  openapi/openapi.yaml\n    info.description changed\n');
    expect(text.trimEnd().split('\n').at(-1)).toMatch(
      /^\d+ changes \(1 breaking, .*\)\. 1 breaking change for clients\.$/,
    );

    const markdown = readFileSync(join(repo, 'diff.md'), 'utf8');
    expect(markdown).toMatch(/^## .*Contract changes against `HEAD`: 1 breaking, /);
    expect(markdown.indexOf('### Breaking (1)')).toBeLessThan(markdown.indexOf('### Deprecated'));
    expect(markdown).toContain('| `getLegacy` GET `/legacy` | operation removed |');
    expect(markdown).toContain('<summary>Non-breaking (');

    const json = JSON.parse(readFileSync(join(repo, 'diff.json'), 'utf8')) as Doc;
    expect(json.breaking).toBe(true);
    expect(json.counts.breaking).toBe(1);
    expect(json.groups.map((g: Doc) => g.kind)).toEqual([
      'breaking',
      'deprecated',
      'non-breaking',
      'annotation',
    ]);
    expect(json.groups[0].scopes[0]).toMatchObject({
      operation: { operationId: 'getLegacy', method: 'GET', path: '/legacy' },
      changes: [{ text: 'operation removed', count: 1, where: ['/paths/~1legacy/get'] }],
    });
  });

  for (const flag of ['--help', '-h'])
    test(`prints its usage on ${flag} and compares nothing`, () => {
      const run = spawnSync('npx', ['tsx', 'scripts/spec-diff.ts', flag, '--json', 'never-written.json'], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^Usage: npm run spec:diff/);
      expect(run.stdout).toContain('--markdown FILE');
      expect(existsSync('never-written.json')).toBe(false);
    });

  for (const [what, args, message] of [
    ['a ref that does not exist', ['no-such-ref-123'], '"no-such-ref-123" is not a git ref'],
    ['an unknown option', ['--markdwon', 'x.md'], "Unknown option '--markdwon'"],
    ['two refs', ['HEAD', 'HEAD~1'], "Unexpected argument 'HEAD~1'"],
  ] as const)
    test(`refuses ${what} with exit code 2`, () => {
      const run = spawnSync('npx', ['tsx', 'scripts/spec-diff.ts', ...args], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('Usage: npm run spec:diff');
    });
});
