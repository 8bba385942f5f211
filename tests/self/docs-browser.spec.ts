import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { loadContract } from '../../lib/contract/index.ts';
import { changesOf, type Changelog } from '../../lib/docs/changelog.ts';
import { RULES } from '../../lib/spec-diff/index.ts';
import { watch } from './support/watch.ts';
import { tsxArgs } from './support/commands.ts';

const contract = await loadContract();
let server: Server;
let origin = '';
let reports = '';

/** The pages the browser opens from disk: every page but the rule pages, of which a sample. */
const PAGES = ['index.html', 'main.html', 'images.html', 'spec-diff-rules.html', 'changelog.html'];
const RULE_SAMPLE = ['NOTIF-07', 'AUTH-03', 'IMG-01'];

/**
 * Opens a page of the docs from disk with the network off: every request that is not for a file
 * is refused, and recorded.
 */
async function offline(page: Page, name: string) {
  const attempted: string[] = [];
  await page.context().route(/^(?!file:|data:|blob:)/, (route) => {
    attempted.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const seen = watch(page, 'file:');
  await page.goto(pathToFileURL(join(reports, 'docs', name)).href);
  await page.waitForLoadState('load');
  return { attempted, errors: seen.errors };
}

/**
 * Redoc's generated pages: what post-processing could not reach. None is excluded today; a rule
 * named here is disabled on those pages only, with the reason beside it.
 */
const REDOC_EXCLUDED: string[] = [];

// One build serves every test of the file, in one worker, in order.
test.describe.configure({ mode: 'default' });
test.beforeAll(async () => {
  // A first build compares every version of the contract; later ones read the cache.
  test.setTimeout(240_000);
  reports = mkdtempSync(join(tmpdir(), 'clm-docs-'));
  const built = spawnSync(process.execPath, tsxArgs('scripts/docs.ts'), {
    env: { ...process.env, CLM_REPORTS_DIR: reports },
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);
  server = createServer((req, res) => {
    try {
      const body = readFileSync(
        join(reports, 'docs', (req.url ?? '/').split(/[?#]/)[0]!.replace(/^\/$/, '/index.html')),
      );
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test.describe('the published documentation', () => {
  for (const document of ['main', 'images'] as const) {
    test(`shows every operation of the ${document} document, with no console error and nothing fetched from outside`, async ({
      page,
    }) => {
      const seen = watch(page, origin);
      await page.goto(`${origin}/${document}.html`);
      await expect(page.getByText(contract.documents[document].info.title).first()).toBeVisible();
      const operations = [...contract.operations.values()].filter((op) => op.document === document);
      for (const op of operations) {
        await page.goto(`${origin}/${document}.html#operation/${op.id}`);
        await expect(page.getByText(op.summary, { exact: true }).first(), op.id).toBeVisible();
      }
      await page.waitForLoadState('networkidle');
      expect(seen.outside).toEqual([]);
      expect(seen.errors).toEqual([]);
    });
  }

  test('has an index linking both documents and listing every operation with its rules', async ({ page }) => {
    const seen = watch(page, origin);
    await page.goto(`${origin}/`);
    for (const op of contract.operations.values()) {
      const row = page
        .locator('tr')
        .filter({ has: page.getByText(`${op.method.toUpperCase()} ${op.path}`, { exact: true }) });
      await expect(row, op.id).toContainText(op.summary);
      for (const rule of op.rules) await expect(row, `${op.id} carries ${rule}`).toContainText(rule);
    }
    await expect(page.locator('tr', { hasText: 'NOTIF-07' }).last()).toContainText('next');
    await page.getByRole('link', { name: contract.documents.images.info.title }).click();
    await expect(page).toHaveURL(/images\.html$/);
    expect(seen.outside).toEqual([]);
    expect(seen.errors).toEqual([]);
  });

  test('carries the rule table of the gate on contract changes, linked from the index', async ({ page }) => {
    const seen = watch(page, origin);
    await page.goto(`${origin}/`);
    await page.getByRole('link', { name: 'The gate on contract changes: its rules' }).click();
    await expect(page).toHaveURL(/spec-diff-rules\.html$/);
    await expect(page.locator('tbody tr')).toHaveCount(RULES.length);
    const row = page.locator('tr#response-property-became-nullable');
    await expect(row).toContainText('error');
    await expect(row).toContainText('response');
    await expect(page.locator('tr#request-property-became-nullable')).toContainText('info');
    expect(seen.errors).toEqual([]);
    expect(seen.outside).toEqual([]);
  });
});

test.describe('the docs, offline, accessible and searchable', () => {
  for (const name of [...PAGES, ...RULE_SAMPLE.map((id) => `rules/${id}.html`)])
    test(`${name} works with the network off and axe finds nothing serious or critical`, async ({ page }) => {
      test.slow();
      const { attempted, errors } = await offline(page, name);
      const axe = new AxeBuilder({ page });
      if (name === 'main.html' || name === 'images.html') axe.disableRules(REDOC_EXCLUDED);
      const { violations } = await axe.analyze();
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious).toEqual([]);
      expect(attempted).toEqual([]);
      expect(errors).toEqual([]);
    });

  test('search on the index finds an operation, a rule and a change, offline', async ({ page }) => {
    const { attempted } = await offline(page, 'index.html');
    const search = page.getByLabel('Operations, rules and changes containing:');
    const results = page.locator('#search-results li');
    await search.fill('/content/notifications');
    await expect(results.filter({ hasText: 'operation: GET /content/notifications' }).first()).toBeVisible();
    await search.fill('NOTIF-07');
    await expect(results.filter({ hasText: 'rule: NOTIF-07' })).toHaveCount(1);
    // A breaking change of the history, found by its rule's id.
    const log = JSON.parse(readFileSync(join(reports, 'docs', 'changelog.json'), 'utf8')) as Changelog;
    const change = log.entries.flatMap(changesOf).find((c) => c.level === 'error')!;
    await search.fill(change.id);
    await expect(results.filter({ hasText: /^change: \d{4}-\d{2}-\d{2} version / }).first()).toBeVisible();
    await results
      .filter({ hasText: /^change: / })
      .first()
      .getByRole('link')
      .click();
    await expect(page).toHaveURL(/changelog\.html#v-[0-9a-f]{12}$/);
    await expect(page.locator(':target')).toBeVisible();
    expect(attempted).toEqual([]);
  });

  test('a rule page links its tests and the faults that prove them, and is linked from the index', async ({
    page,
  }) => {
    await offline(page, 'index.html');
    await page.locator('a.rule', { hasText: 'NOTIF-07' }).first().click();
    await expect(page).toHaveURL(/rules\/NOTIF-07\.html$/);
    const rule = contract.rules.find((r) => r.id === 'NOTIF-07')!;
    await expect(page.getByText(rule.text)).toBeVisible();
    await page.getByRole('link', { name: /^Tests \(\d+\)$/ }).click();
    await expect(page.locator('#tests + ol li').first()).toContainText('@NOTIF-07');
    await expect(page.locator('#tests + ol li').first()).toContainText('tests/conformance/');
    await page.getByRole('link', { name: /^Faults \(\d+\)$/ }).click();
    await expect(page.locator('tr[id^="fault-"]').first()).toBeVisible();
    await expect(page.getByRole('link', { name: /GET \/content\/notifications/ }).first()).toBeVisible();
  });

  test('the changelog links each change to its rule and each operation to its rule pages', async ({
    page,
  }) => {
    await offline(page, 'changelog.html');
    await expect(page.locator('.reach')).toContainText(
      /The whole history of openapi\/|This clone is shallow/,
    );
    const change = page.locator('section li.error').first();
    const id = (await change.locator('code').first().textContent())!;
    await expect(change.getByRole('link', { name: id })).toHaveAttribute(
      'href',
      `spec-diff-rules.html#${id}`,
    );
    await expect(page.locator('section h4 a[href^="rules/"]').first()).toBeAttached();
    await page.goto(`${pathToFileURL(join(reports, 'docs', 'spec-diff-rules.html')).href}#${id}`);
    await expect(page.locator(`tr#${id}`)).toBeVisible();
  });
});
