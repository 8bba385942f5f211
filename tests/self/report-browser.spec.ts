import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { loadContract, loadRules } from '../../lib/contract/index.ts';
import { buildReport, type ConformanceReport, type TestRecord } from '../../lib/report/model.ts';
import { conformanceHtml } from '../../lib/report/render-html.ts';
import { trendHtml } from '../../lib/report/trend.ts';
import { recordOf } from '../../lib/report/history.ts';
import { META } from './support/report-meta.ts';
import { watch } from './support/watch.ts';

/** Screenshots for readers of the reports: written where the reports are, never committed. */
const SHOTS = 'reports/screenshots';
const REPLAY =
  'MOCK_FAULTS=content-as-list FC_SEED=7 ' +
  'npx playwright test tests/conformance/content.spec.ts:19 --project=mock';

const pages = new Map<string, string>();
let server: Server;
let origin = '';

async function report(faulty: boolean, endedAt: string): Promise<ConformanceReport> {
  const failure = {
    message:
      'ApiCheckError: Response violates schema [CONT-01]\n' +
      '  Expected: an object\n  Received: body must be object',
    operation: 'getContent',
    exchange: {
      method: 'GET',
      url: 'https://127.0.0.1:8443/content/65522bdc-0a65-4469-848b-169bb427661b',
      status: 200,
      curl:
        'curl -sS -k -H "X-Api-Key: $CLM_API_KEY" ' +
        '"https://127.0.0.1:8443/content/65522bdc-0a65-4469-848b-169bb427661b"',
      body: '[{"id":"http://www.ft.com/thing/65522bdc-0a65-4469-848b-169bb427661b"}]',
    },
    replay: REPLAY,
    location: 'tests/conformance/content.spec.ts:19',
  };
  const records: TestRecord[] = [
    {
      id: 'a',
      title: 'getContent: a known item gets 200',
      file: 'f',
      rules: ['CONT-01'],
      outcome: faulty ? 'failed' : 'passed',
      ...(faulty ? { failure } : {}),
      observations: {
        calls: [{ operation: 'getContent', status: 200, ms: faulty ? 40 : 12 }],
        drift: [],
        retries: [],
        requests: 1,
        findings: [],
        exchanges: [],
        deprecations: [],
      },
    },
    {
      id: 'b',
      title: 'search names the full version',
      file: 'f',
      rules: ['CONT-04'],
      outcome: faulty ? 'failed' : 'passed',
      ...(faulty ? { failure } : {}),
    },
    { id: 'c', title: 'trial exclusions', file: 'f', rules: ['TE-01'], outcome: 'passed' },
  ];
  return buildReport(records, loadRules(), await loadContract(), {
    target: 'mock',
    seed: '7',
    meta: { ...META, endedAt },
  });
}

test.describe('the report pages in a browser', () => {
  test.beforeAll(async () => {
    const clean = await report(false, '2026-11-21T02:30:00.000Z');
    const red = await report(true, '2026-11-22T02:30:00.000Z');
    pages.set('/conformance.html', conformanceHtml(red));
    pages.set('/trend.html', trendHtml([recordOf(clean), recordOf(red)]));
    server = createServer((req, res) => {
      const body = pages.get((req.url ?? '/').split(/[?#]/)[0]!);
      if (body) res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    mkdirSync(SHOTS, { recursive: true });
  });

  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('the conformance page shows the finding first, and its replay command copies', async ({
    page,
    context,
  }) => {
    const seen = watch(page, origin);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.goto(`${origin}/conformance.html`);
    await expect(page.locator('.verdict')).toContainText('Verdict: FAIL');
    await expect(page.locator('h2').first()).toHaveText('Findings (1)');
    const finding = page.locator('details.finding').first();
    await expect(finding).toContainText('Response violates schema');
    await expect(finding).toContainText('curl -sS -k');
    await expect(page.getByText('Passing rules (1)')).toBeVisible();
    await expect(page.locator('details:not(.finding) table')).toBeHidden();
    const copy = finding.locator(`button[data-copy="${REPLAY}"]`);
    await copy.click();
    await expect(copy).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(REPLAY);
    await page.screenshot({ path: `${SHOTS}/conformance.png`, fullPage: true });
    expect(seen.errors).toEqual([]);
    expect(seen.outside).toEqual([]);
  });

  test('the trend page draws its charts from two runs, offline, with no console error', async ({ page }) => {
    const seen = watch(page, origin);
    await page.goto(`${origin}/trend.html`);
    await expect(page.locator('canvas').first()).toBeVisible();
    await expect(page.getByText('Compared with the 1 run(s) before it')).toBeVisible();
    await expect(page.getByText('CONT-01').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/trend.png`, fullPage: true });
    expect(seen.errors).toEqual([]);
    expect(seen.outside).toEqual([]);
  });
});
