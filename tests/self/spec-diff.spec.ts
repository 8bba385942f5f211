import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parse, stringify } from 'yaml';
import { projectPath } from '../../lib/paths.ts';
import { compareContracts, RULES } from '../../lib/spec-diff/index.ts';
import { tsxArgs } from './support/commands.ts';
import { scratchFolder } from '../../lib/scratch.ts';

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access,
   @typescript-eslint/no-unsafe-return --
   the fixtures are plain YAML documents, edited freely by each case */
type Doc = Record<string, any>;
const BASE = projectPath('tests/self/fixtures/diff/base.yaml');
const base = parse(readFileSync(BASE, 'utf8')) as Doc;
const op = (doc: Doc) => doc.paths['/widgets/{widgetId}'].get;
const body = (doc: Doc) => op(doc).responses['200'].content['application/json'].schema;
const edited = (change: (doc: Doc) => void) => {
  const doc = structuredClone(base);
  change(doc);
  return doc;
};

/** The gate as a user runs it, from a folder of their own. */
function specDiff(args: string[], cwd = projectPath('.'), env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, tsxArgs(projectPath('scripts/spec-diff.ts'), args), {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GITHUB_STEP_SUMMARY: '', ...env },
  });
}

/** Two files in a fresh folder: the base fixture and an edited revision. */
function pair(change: (doc: Doc) => void) {
  const dir = scratchFolder('spec-diff');
  writeFileSync(join(dir, 'a.yaml'), stringify(base));
  writeFileSync(join(dir, 'b.yaml'), stringify(edited(change)));
  return dir;
}

test.describe('the gate on contract changes', () => {
  test('finds no change between a document and itself, keys reordered', () => {
    const reordered = Object.fromEntries(Object.entries(structuredClone(base)).reverse());
    expect(compareContracts(base, reordered)).toEqual([]);
  });

  test('gives each change its rule, level, operation, pointer and line of text', () => {
    const changes = compareContracts(
      base,
      edited((d) => (op(d).parameters[1].schema.enum = ['full'])),
    );
    expect(changes).toEqual([
      {
        id: 'request-parameter-enum-value-removed',
        level: 'error',
        direction: 'request',
        operation: 'getWidget GET /widgets/{widgetId}',
        pointer: '/paths/~1widgets~1{widgetId}/get/parameters/1/schema/enum',
        text: 'query parameter `view`: enum value `brief` removed',
      },
    ]);
  });

  test('every rule has a kebab-case id, a level, a direction and a reason, once', () => {
    expect(RULES.length).toBeGreaterThan(500);
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    // One check of the whole table: an expect a rule would be a step each, two thousand of them.
    const malformed = RULES.filter(
      (r) =>
        !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(r.id) ||
        !['error', 'warning', 'info'].includes(r.level) ||
        !['request', 'response', 'both'].includes(r.direction) ||
        r.reason.length <= 10,
    );
    expect(malformed).toEqual([]);
  });

  test('the same narrowing breaks a request and is safe in a response', () => {
    const narrowed = edited((d) => {
      op(d).parameters[1].schema.maxLength = 4;
      body(d).properties.name.maxLength = 4;
    });
    const levels = Object.fromEntries(compareContracts(base, narrowed).map((c) => [c.id, c.level]));
    expect(levels).toEqual({
      'request-parameter-max-length-set': 'error',
      'response-property-max-length-set': 'info',
    });
  });

  test('compares a recursive schema in bounded time', () => {
    const tree = (extra: Doc) => ({
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } }, ...extra },
    });
    const withTree = (extra: Doc) =>
      edited((d) => {
        d.components = { schemas: { Node: tree(extra) } };
        op(d).responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Node' };
      });
    const changes = compareContracts(withTree({}), withTree({ size: { type: 'integer' } }));
    expect(changes.map((c) => [c.id, c.level])).toEqual([['response-body-property-added', 'info']]);
  });
});

test.describe('npm run spec:diff', () => {
  test('compares two files and fails on a change that breaks clients', () => {
    const dir = pair((d) => {
      delete body(d).properties.name;
      body(d).required = ['id'];
    });
    const run = specDiff(['a.yaml', 'b.yaml'], dir);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain('Breaks clients (error, 1)');
    expect(run.stdout).toContain(
      '  getWidget GET /widgets/{widgetId}\n' +
        '    response 200: `name` removed  [response-body-required-property-removed]',
    );
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      '1 change (1 error). 1 change at or above error: the gate fails.',
    );
  });

  test('lets a safe change through, and fails on it with --fail-on warning when it may break', () => {
    const safe = specDiff(
      ['a.yaml', 'b.yaml'],
      pair((d) => (body(d).properties.colour = { type: 'string' })),
    );
    expect(safe.status, safe.stdout).toBe(0);
    const risky = pair((d) => (op(d).operationId = 'fetchWidget'));
    expect(specDiff(['a.yaml', 'b.yaml'], risky).status).toBe(0);
    expect(specDiff(['a.yaml', 'b.yaml', '--fail-on', 'warning'], risky).status).toBe(1);
  });

  test('writes JSON, Markdown and GitHub annotations at the line of the change', () => {
    const dir = pair((d) => (op(d).parameters[1].schema.enum = ['full']));
    const json = JSON.parse(specDiff(['a.yaml', 'b.yaml', '--format', 'json'], dir).stdout) as Doc;
    expect(json.failing).toBe(1);
    expect(json.documents[0].changes[0]).toMatchObject({
      id: 'request-parameter-enum-value-removed',
      level: 'error',
    });
    expect(json.changes).toEqual([expect.objectContaining({ document: 'b.yaml', level: 'error' })]);
    const markdown = specDiff(['a.yaml', 'b.yaml', '--format', 'markdown'], dir).stdout;
    expect(markdown).toMatch(/^## ❌ Contract changes: b\.yaml against `a\.yaml`/);
    expect(markdown).toContain('| `request-parameter-enum-value-removed` |');
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '');
    const github = specDiff(['a.yaml', 'b.yaml', '--format', 'github'], dir, {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(github.status).toBe(1);
    const line = readFileSync(join(dir, 'b.yaml'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('enum:'));
    expect(github.stdout).toContain(
      `::error file=b.yaml,line=${line + 1},` +
        'title=request-parameter-enum-value-removed (getWidget GET /widgets/{widgetId})::',
    );
    expect(readFileSync(summary, 'utf8')).toContain('Contract changes');
  });
});

test.describe('npm run spec:diff: baselines, git refs and what it refuses', () => {
  test('accepts a change named in a baseline until its entry expires', () => {
    const dir = pair((d) => delete d.paths['/widgets']);
    const entry = { rule: 'path-removed', pointer: '/paths', reason: 'retired in v2' };
    writeFileSync(join(dir, 'ok.yaml'), stringify([{ ...entry, expires: '2999-01-01' }]));
    writeFileSync(join(dir, 'old.yaml'), stringify([{ ...entry, expires: '2000-01-01' }]));
    const accepted = specDiff(['a.yaml', 'b.yaml', '--baseline', 'ok.yaml'], dir);
    expect(accepted.status, accepted.stdout).toBe(0);
    expect(accepted.stdout).toContain('[accepted until 2999-01-01: retired in v2]');
    const expired = specDiff(['a.yaml', 'b.yaml', '--baseline', 'old.yaml'], dir);
    expect(expired.status).toBe(1);
    expect(expired.stdout).toContain('[acceptance expired 2000-01-01]');
    writeFileSync(join(dir, 'bad.yaml'), stringify([entry]));
    const bad = specDiff(['a.yaml', 'b.yaml', '--baseline', 'bad.yaml'], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('entry 1 has no expires');
  });

  test("compares the working tree's contract with a git ref", () => {
    const repo = scratchFolder('spec-diff-repo');
    cpSync(projectPath('openapi'), join(repo, 'openapi'), { recursive: true });
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-qm', 'base');
    // The commit's copy is read from a temporary folder, and gone when the command ends.
    const temp = scratchFolder('spec-diff-temp');
    expect(specDiff(['HEAD'], repo, { TMPDIR: temp }).stdout).toContain('0 changes.');
    expect(readdirSync(temp).filter((name) => name.startsWith('clm-'))).toEqual([]);
    const file = join(repo, 'openapi/openapi.yaml');
    const doc = parse(readFileSync(file, 'utf8')) as Doc;
    delete doc.paths['/trial-exclusions/ip-addresses'];
    writeFileSync(file, stringify(doc));
    const run = specDiff(['HEAD'], repo);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain('listTrialExclusionIpAddresses GET /trial-exclusions/ip-addresses');
    expect(run.stdout).toContain('[path-removed]');
  });

  for (const [what, args, message] of [
    ['a ref that does not exist', ['no-such-ref-123'], '"no-such-ref-123" is neither a file nor a git ref'],
    ['an unknown option', ['--markdwon', 'x.md'], "Unknown option '--markdwon'"],
    ['three arguments', ['HEAD', 'HEAD', 'HEAD'], "Unexpected argument 'HEAD'"],
    ['an unknown format', ['--format', 'xml', 'HEAD'], '--format must be text, markdown, json or github'],
  ] as const)
    test(`refuses ${what} with exit code 2`, () => {
      const run = specDiff([...args]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain('Usage: npm run spec:diff');
    });

  test('says why a document cannot be read, with exit code 2', () => {
    const dir = pair(() => undefined);
    writeFileSync(join(dir, 'swagger.yaml'), 'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths: {}\n');
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: 3.1.0\npaths: [unclosed\n');
    for (const [file, message] of [
      ['swagger.yaml', 'not an OpenAPI 3.0, 3.1 or 3.2 document (Swagger "2.0")'],
      ['broken.yaml', 'is not YAML or JSON'],
    ] as const) {
      const run = specDiff(['a.yaml', file], dir);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});
