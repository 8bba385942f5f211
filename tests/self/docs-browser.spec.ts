import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { loadContract } from '../../lib/contract/index.ts';
import { RULES } from '../../lib/spec-diff/index.ts';
import { watch } from './support/watch.ts';
import { tsxArgs } from './support/commands.ts';

const contract = await loadContract();
let server: Server;
let origin = '';

test.describe('the published documentation', () => {
  test.beforeAll(async () => {
    const reports = mkdtempSync(join(tmpdir(), 'clm-docs-'));
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
