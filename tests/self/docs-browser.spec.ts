import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { loadContract, loadRules } from '../../lib/contract/index.ts';
import { changesOf, type Changelog } from '../../lib/docs/changelog.ts';
import { buildReport } from '../../lib/report/model.ts';
import { RULES } from '../../lib/spec-diff/index.ts';
import { watch } from './support/watch.ts';
import { tsxArgs } from './support/commands.ts';
import { META } from './support/report-meta.ts';
import { scratchFolder } from '../../lib/scratch.ts';

const contract = await loadContract();
let reports = '';
let stdout = '';
const FAULTED = 'No verdicts: the last run had faults switched on (page-of-201).';

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

/**
 * axe's serious and critical violations on the page. Legacy mode runs axe.run in the page itself:
 * the default mode opens a blank page to merge the frames' results, seconds on the biggest pages,
 * and the docs have no frame (checked, so none goes untested). Only violations are collected:
 * passes and inapplicable rules are never read here.
 */
async function axeSerious(page: Page, disabled: string[] = []) {
  expect(page.frames()).toHaveLength(1);
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .disableRules(disabled)
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** `npm run docs` into a fresh reports folder holding a faulted run's report. */
function buildDocs(): Promise<void> {
  reports = scratchFolder('docs');
  const records = [
    { id: 'a', title: 'a page of at most 200', file: 'f', rules: ['NOTIF-06'], outcome: 'failed' as const },
    { id: 'b', title: 'the first page', file: 'f', rules: ['NOTIF-01'], outcome: 'passed' as const },
  ];
  const faulted = buildReport(records, loadRules(), contract, {
    target: 'mock',
    seed: '42',
    meta: { ...META, faults: ['page-of-201'] },
  });
  writeFileSync(join(reports, 'conformance.json'), JSON.stringify(faulted));
  const child = spawn(process.execPath, tsxArgs('scripts/docs.ts'), {
    env: { ...process.env, CLM_REPORTS_DIR: reports },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(stderr))));
  });
}

// One build serves every test of the file, in one worker, in order: the build after a faulted run,
// which must publish every page all the same. It runs while the first test starts the browser.
// Each page is opened once, with the network off, and everything it must do is checked there.
test.describe.configure({ mode: 'default' });
let built: Promise<void>;
let ready = false;
test.beforeAll(() => {
  built = buildDocs();
  // A failed build fails every test that awaits it; none is left unhandled meanwhile.
  built.catch(() => {});
});
test.beforeEach(async () => {
  // A first build compares every version of the contract; later ones read the cache. Axe on the
  // biggest pages takes its time on a busy machine.
  test.setTimeout(ready ? 90_000 : 240_000);
  await built;
  ready = true;
});

test.describe('the published documentation, offline and accessible', () => {
  for (const document of ['main', 'images'] as const)
    test(`${document}.html shows every operation with the network off and no console error; axe finds nothing serious or critical`, async ({
      page,
    }) => {
      const { attempted, errors } = await offline(page, `${document}.html`);
      await expect(page.getByText(contract.documents[document].info.title).first()).toBeVisible();
      expect(await axeSerious(page, REDOC_EXCLUDED)).toEqual([]);
      const operations = [...contract.operations.values()].filter((op) => op.document === document);
      for (const op of operations) {
        await page.goto(`${page.url().split('#')[0]!}#operation/${op.id}`);
        await expect(page.getByText(op.summary, { exact: true }).first(), op.id).toBeVisible();
      }
      await page.waitForLoadState('networkidle');
      expect(attempted).toEqual([]);
      expect(errors).toEqual([]);
    });

  test('index.html links every page and lists every operation with its rules, offline; axe finds nothing serious or critical', async ({
    page,
  }) => {
    const { attempted, errors } = await offline(page, 'index.html');
    expect(await axeSerious(page)).toEqual([]);
    // The rows read at once: a locator per operation and rule is a round trip each.
    const rows = await page
      .locator('tr:has(code)')
      .evaluateAll((trs) =>
        trs.map((tr) => ({ route: tr.querySelector('code')?.textContent, text: tr.textContent ?? '' })),
      );
    for (const op of contract.operations.values()) {
      const row = rows.filter((r) => r.route === `${op.method.toUpperCase()} ${op.path}`);
      expect(row, op.id).toHaveLength(1);
      expect(row[0]!.text, op.id).toContain(op.summary);
      for (const rule of op.rules) expect(row[0]!.text, `${op.id} carries ${rule}`).toContain(rule);
    }
    await expect(page.locator('tr', { hasText: 'NOTIF-07' }).last()).toContainText('next');
    const links = {
      'main.html': contract.documents.main.info.title,
      'spec-diff-rules.html': 'The gate on contract changes: its rules',
      'changelog.html': 'Changelog: what changed in the contract, and when',
    };
    for (const [href, name] of Object.entries(links))
      await expect(page.getByRole('link', { name, exact: true }).first()).toHaveAttribute('href', href);
    await page.getByRole('link', { name: contract.documents.images.info.title }).click();
    await expect(page).toHaveURL(/images\.html$/);
    expect(attempted).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('spec-diff-rules.html carries the rule table of the gate on contract changes, offline; axe finds nothing serious or critical', async ({
    page,
  }) => {
    const { attempted, errors } = await offline(page, 'spec-diff-rules.html');
    expect(await axeSerious(page)).toEqual([]);
    await expect(page.locator('tbody tr')).toHaveCount(RULES.length);
    const row = page.locator('tr#response-property-became-nullable');
    await expect(row).toContainText('error');
    await expect(row).toContainText('response');
    await expect(page.locator('tr#request-property-became-nullable')).toContainText('info');
    expect(attempted).toEqual([]);
    expect(errors).toEqual([]);
  });
});

test.describe('the changelog, the rule pages and the search, offline and accessible', () => {
  test('changelog.html links each change to its rule and each operation to its rule pages, offline; axe finds nothing serious or critical', async ({
    page,
  }) => {
    const { attempted, errors } = await offline(page, 'changelog.html');
    expect(await axeSerious(page)).toEqual([]);
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
    expect(attempted).toEqual([]);
    expect(errors).toEqual([]);
    await page.goto(`${pathToFileURL(join(reports, 'docs', 'spec-diff-rules.html')).href}#${id}`);
    await expect(page.locator(`tr#${id}`)).toBeVisible();
  });
  test('a rule page links its tests and the faults that prove them, and is linked from the index; axe finds nothing serious or critical', async ({
    page,
  }) => {
    const { attempted, errors } = await offline(page, 'index.html');
    await page.locator('a.rule', { hasText: 'NOTIF-07' }).first().click();
    await expect(page).toHaveURL(/rules\/NOTIF-07\.html$/);
    expect(await axeSerious(page)).toEqual([]);
    const rule = contract.rules.find((r) => r.id === 'NOTIF-07')!;
    await expect(page.getByText(rule.text)).toBeVisible();
    await page.getByRole('link', { name: /^Tests \(\d+\)$/ }).click();
    await expect(page.locator('#tests + ol li').first()).toContainText('@NOTIF-07');
    await expect(page.locator('#tests + ol li').first()).toContainText('tests/conformance/');
    await page.getByRole('link', { name: /^Faults \(\d+\)$/ }).click();
    await expect(page.locator('tr[id^="fault-"]').first()).toBeVisible();
    await expect(page.getByRole('link', { name: /GET \/content\/notifications/ }).first()).toBeVisible();
    expect(attempted).toEqual([]);
    expect(errors).toEqual([]);
  });

  for (const id of ['AUTH-03', 'IMG-01'])
    test(`rules/${id}.html works with the network off and axe finds nothing serious or critical`, async ({
      page,
    }) => {
      const { attempted, errors } = await offline(page, `rules/${id}.html`);
      expect(await axeSerious(page)).toEqual([]);
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
});

test('npm run docs after a faulted run publishes the docs without verdicts and says why', () => {
  expect(stdout).toContain(FAULTED);
  const index = readFileSync(join(reports, 'docs', 'index.html'), 'utf8');
  expect(index).not.toMatch(/<b class="[\w-]+">[\w ]+<\/b>/);
  expect(index).toContain(FAULTED);
  expect(readFileSync(join(reports, 'docs', 'main.html'), 'utf8')).toContain('</html>');
});
