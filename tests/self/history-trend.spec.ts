import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { appendHistory, HISTORY_FILE, type HistoryRecord } from '../../lib/report/history.ts';
import { chartAssets } from '../../lib/report/trend-charts.ts';
import { trendHtml } from '../../lib/report/trend.ts';
import { series, tmp, tsx } from './support/history-runs.ts';

test.describe('the trend page', () => {
  // NOTIF-07 regresses in the newest run, AUTH-01 flips each night, a drift field appears on day 2.
  const history = series('pass', 'pass', 'pass', 'fail').map((r, i): HistoryRecord => ({
    ...r,
    rules: { ...r.rules, 'AUTH-01': i % 2 ? 'fail' : 'pass' },
    drift: i >= 1 ? ['listNotifications 200 </script><b>x'] : [],
  }));

  test('inlines the charting library and asks for nothing from outside', () => {
    const html = trendHtml(history);
    const { js, css } = chartAssets();
    expect(html).toContain(js.slice(0, 500));
    expect(html).toContain(js.slice(-500));
    expect(html).toContain(css.slice(0, 200));
    expect(html).not.toMatch(/<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=\s*(?!["']?data:)/i);
    expect(html).not.toMatch(/@import|url\(\s*["']?(https?:)?\/\//i);
  });

  test('puts the newest verdict and the regressed and flaky rules first', () => {
    const html = trendHtml(history);
    const summary = html.slice(html.indexOf('id="summary"'), html.indexOf('id="charts"'));
    expect(summary).toContain('Newest run: <b>FAIL</b>');
    expect(summary).toMatch(/id="regressed"><li><b>NOTIF-07<\/b>.*: A page of 201 changes<\/li><\/ul>/);
    expect(summary).toMatch(/id="flaky"><li><b>AUTH-01<\/b>/);
    expect(html).toMatch(/<tr class="flaky"><th scope="row">AUTH-01 <span class="tag flaky">/);
  });

  test('lists each drift field with when it was first and last seen, escaped', () => {
    const html = trendHtml(history);
    const drift = html.slice(html.indexOf('id="drift"'));
    expect(drift).toContain('<code>&lt;/script&gt;&lt;b&gt;x</code>');
    expect(drift).toContain('<td>2025-01-02 02:40</td><td>2025-01-04 02:40</td><td>3</td>');
    expect(html.match(/<\/script/gi)).toHaveLength(3);
  });

  test('says so when there are no runs yet, and draws a single run', () => {
    expect(trendHtml([])).toContain('No runs yet');
    const one = trendHtml(history.slice(0, 1));
    expect(one).toContain('nothing to compare with yet');
    expect(one).not.toContain('No runs yet');
  });

  test('npm run report:trend writes the page of a history', () => {
    const dir = tmp();
    for (const r of history) appendHistory(join(dir, HISTORY_FILE), r);
    const out = join(dir, 'page', 'trend.html');
    const result = tsx('report-trend', ['--history', join(dir, HISTORY_FILE), '--out', out]);
    expect(result.status).toBe(0);
    expect(existsSync(out) && readFileSync(out, 'utf8')).toContain('NOTIF-07');
    expect(tsx('report-trend', ['--out']).status).toBe(2);
  });
});
