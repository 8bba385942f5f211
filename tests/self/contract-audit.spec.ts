import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { Contract, loadContract, loadDocument, type DocumentName } from '../../lib/contract/index.ts';
import { projectPath } from '../../lib/paths.ts';
import { exampleProblems, operationProblems, ruleProblems } from '../../lib/contract/audit.ts';

/** The operations the interface names, each as the contract must hold it. */
const INTERFACE_OPERATIONS: Record<DocumentName, string[]> = {
  main: [
    'GET /content/notifications',
    'GET /trial-exclusions/ip-addresses',
    'GET /licence/{licenceId}',
    'GET /users/{userId}/profile/full',
    'GET /site/v1/pages/{pageId}/main-content',
    'GET /content/{itemId}',
    'GET /enrichedcontent/{itemId}',
    'POST /content/search/v1',
    'GET /content/items/v1/{itemId}',
    'GET /content/notifications/v1/items',
    'GET /site/v1/pages',
    'GET /site/v1/pages/{pageId}',
    'GET /site/v1/pages/{pageId}/skyline-content',
  ],
  images: ['GET /images/raw/{imageUri}', 'GET /images/debug/{imageUri}', 'GET /images/metadata/{imageUri}'],
};

/** A contract whose main document is a fixture; the real image document keeps it whole. */
async function contractWithMain(fixture: string): Promise<Contract> {
  const main = await loadDocument('main', projectPath(fixture));
  const real = await loadContract();
  return new Contract({ main, images: { ...real.documents.images, paths: {} } }, real.rules);
}

function operationsOf(contract: Contract, document: DocumentName): string[] {
  return [...contract.operations.values()]
    .filter((op) => op.document === document)
    .map((op) => `${op.method.toUpperCase()} ${op.path}`);
}

test.describe('the contract', () => {
  test('holds exactly the operations that the interface names', async () => {
    const contract = await loadContract();
    for (const document of ['main', 'images'] as const) {
      expect(operationsOf(contract, document).sort()).toEqual([...INTERFACE_OPERATIONS[document]].sort());
    }
  });

  test('has examples that validate against their schemas and meet their expectations, in both documents', async () => {
    const contract = await loadContract();
    expect(exampleProblems(contract.documents.main)).toEqual([]);
    expect(exampleProblems(contract.documents.images)).toEqual([]);
  });

  test('carries every rule of the catalogue and names no unknown rule', async () => {
    const contract = await loadContract();
    expect(contract.rules.length).toBeGreaterThanOrEqual(60);
    expect(ruleProblems(contract)).toEqual([]);
  });

  test('says of every rule not checked on both targets why not live, or what makes it live', async () => {
    const { rules } = await loadContract();
    const silent = rules.filter((r) => !r.where.includes('both') && !r.live?.trim()).map((r) => r.id);
    expect(silent).toEqual([]);
    // A configuration that makes a rule live is named by its variable.
    const live = (id: string) => rules.find((r) => r.id === id)?.live;
    expect(live('PAGE-06')).toContain('CLM_GONE_PAGE_ID');
    expect(live('PROF-03')).toContain('CLM_TOKEN_WITHOUT_PROFILE_MAX');
  });

  test('gives every operation an id, summary, description, tags, rules, and every response a schema and an example', async () => {
    const contract = await loadContract();
    expect(operationProblems(contract)).toEqual([]);
  });

  test('marks exactly the v1 endpoints deprecated, and not the search @DEPR-01 @CONT-04', async () => {
    const contract = await loadContract();
    for (const op of contract.operations.values()) {
      const v1 = op.path.includes('/v1/') && op.id !== 'searchContent';
      expect(op.deprecated, `${op.id} deprecated`).toBe(v1);
    }
  });
});

test.describe('the contract: its response schemas', () => {
  test('compiles a validator for every JSON response', async () => {
    const contract = await loadContract();
    for (const op of contract.operations.values()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response.content?.['application/json']) continue;
        expect(
          contract.validatorFor(op.id, Number(status), 'application/json'),
          `${op.id} ${status}`,
        ).toBeDefined();
      }
    }
  });

  test('limits a notification page to 200 and requires exactly one next link @NOTIF-06 @NOTIF-07', async () => {
    const contract = await loadContract();
    const validate = contract.validatorFor('listNotifications', 200, 'application/json')!;
    const href = 'https://api.ft.com/content/notifications?since=2017-01-06T10:00:00.000Z&page=abc';
    const item = {
      type: 'http://www.ft.com/thing/ThingChangeType/UPDATE',
      id: 'http://www.ft.com/thing/7348edd8-0403-11de-845b-000077b07658',
      apiUrl: 'https://api.ft.com/content/7348edd8-0403-11de-845b-000077b07658',
    };
    const page = (n: number, links: unknown[]) => ({
      requestUrl: 'https://api.ft.com/content/notifications?since=2017-01-06T10:00:00.000Z',
      notifications: Array.from({ length: n }, () => item),
      links,
    });
    expect(validate(page(200, [{ href, rel: 'next' }]))).toBe(true);
    expect(validate(page(201, [{ href, rel: 'next' }]))).toBe(false);
    expect(validate(page(0, []))).toBe(false);
    expect(
      validate(
        page(0, [
          { href, rel: 'next' },
          { href, rel: 'next' },
        ]),
      ),
    ).toBe(false);
    expect(validate(page(0, [{ href: '/content/notifications?since=x&page=y', rel: 'next' }]))).toBe(false);
    // An empty page's link may carry `since` alone, a page with changes' `page` alone (drift,
    // x-expect); each needs its own.
    const sinceOnly = [{ href: 'https://h/content/notifications?since=x', rel: 'next' }];
    const pageOnly = [{ href: 'https://h/content/notifications?page=y', rel: 'next' }];
    expect(validate(page(0, sinceOnly))).toBe(true);
    expect(validate(page(1, sinceOnly))).toBe(false);
    expect(validate(page(1, pageOnly))).toBe(true);
    expect(validate(page(0, pageOnly))).toBe(false);
    // Unknown fields are tolerated everywhere (HTTP-03).
    expect(validate({ ...page(1, [{ href, rel: 'next', extra: 1 }]), extra: true })).toBe(true);
  });

  test('keeps the image metadata free of a cache property @IMG-06', async () => {
    const contract = await loadContract();
    const validate = contract.validatorFor('getImageMetadata', 200, 'application/json')!;
    const metadata = { dpr: 1, type: 'image/jpeg', filesize: 10, width: 1, height: 1 };
    expect(validate(metadata)).toBe(true);
    expect(validate({ ...metadata, cache: { maxAge: 60 } })).toBe(false);
  });
});

test.describe('the bundled contract', () => {
  test('holds the text of every rule of the catalogue, for a reader with any OpenAPI viewer', async () => {
    const run = spawnSync('npm', ['run', 'spec:bundle', '--silent'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const text = ['openapi', 'images']
      .map((name) => readFileSync(projectPath(`build/${name}.json`), 'utf8'))
      .join('\n');
    const { rules } = await loadContract();
    for (const rule of rules) expect(text, rule.id).toContain(`| ${rule.id} | ${rule.level} |`);
  });
});

test.describe('the contract audits', () => {
  test('catch a broken example, an unknown rule ID and missing operation metadata', async () => {
    const broken = await contractWithMain('tests/self/fixtures/broken-contract.yaml');

    const examples = exampleProblems(broken.documents.main);
    expect(examples.some((p) => p.includes('/parameters/0/example'))).toBe(true);
    expect(examples.some((p) => p.includes('/examples/wrong'))).toBe(true);
    expect(examples.some((p) => p.includes('/message/examples/0'))).toBe(true);

    const rules = ruleProblems(broken);
    expect(rules.some((p) => p.includes('NOPE-99'))).toBe(true);
    expect(rules.some((p) => p.includes('NOTIF-07 is carried by no operation'))).toBe(true);

    const operations = operationProblems(broken);
    for (const missing of ['no summary', 'no description', 'no tags', '404: no description', 'no example'])
      expect(
        operations.some((p) => p.includes(missing)),
        missing,
      ).toBe(true);
  });

  test('refuse a response schema that does not compile, and compile every schema of the real one', async () => {
    const broken = await contractWithMain('tests/self/fixtures/uncompilable-contract.yaml');
    expect(() => broken.compileAll()).toThrow(/listGadgets 200 application\/json does not compile/);
    expect(() => broken.validatorFor('listGadgets', 200, 'application/json')).toThrow(/does not compile/);
    const real = await loadContract();
    expect(() => real.compileAll()).not.toThrow();
  });
});
