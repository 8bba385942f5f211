/**
 * The trend page's charts: the library inlined, where they go, their data, and the script that
 * draws them.
 */
import { readFileSync } from 'node:fs';
import { projectPath } from '../paths.ts';
import type { HistoryRecord } from './history.ts';
import type { Verdict } from './model.ts';

/** The run's end as the charts and the grid show it: date, hours and minutes. */
export const when = (at: string) => at.replace('T', ' ').slice(0, 16);

/** The charting library's script and style sheet, inlined so the page makes no request. */
export interface ChartAssets {
  js: string;
  css: string;
}

export function chartAssets(): ChartAssets {
  const dist = (file: string) => readFileSync(projectPath(`node_modules/uplot/dist/${file}`), 'utf8');
  return { js: dist('uPlot.iife.min.js'), css: dist('uPlot.min.css') };
}

/** Where the charts go. */
export const charts = () => `<section id="charts">
<h2>Over time</h2>
<div id="chart-rules"></div>
<div id="chart-requests"></div>
<h3>Latency per operation (ms)</h3>
<div id="chart-latency" class="small"></div>
</section>`;

/** What the charts draw, one value per run, oldest first; null where a run has no value. */
export function chartData(runs: HistoryRecord[]) {
  const operations = [...new Set(runs.flatMap((r) => r.latency.map((l) => l.operation)))].sort();
  const count = (r: HistoryRecord, pick: (v: Verdict) => boolean) =>
    Object.values(r.rules).filter(pick).length;
  return {
    labels: runs.map((r) => when(r.at)),
    requests: runs.map((r) => r.requests),
    pass: runs.map((r) => count(r, (v) => v === 'pass')),
    fail: runs.map((r) => count(r, (v) => v === 'fail')),
    other: runs.map((r) => count(r, (v) => v !== 'pass' && v !== 'fail')),
    latency: operations.map((operation) => {
      const of = (r: HistoryRecord) => r.latency.find((l) => l.operation === operation);
      return {
        operation,
        p50: runs.map((r) => of(r)?.p50 ?? null),
        p95: runs.map((r) => of(r)?.p95 ?? null),
      };
    }),
  };
}

// Runs in the browser: draws the charts from the page's own data with the inlined uPlot.
export const CHART_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('trend-data').textContent);
  if (data.labels.length === 0) return;
  var xs = data.labels.map(function (_, i) { return i; });
  var label = function (v) {
    return v === Math.round(v) && data.labels[v] !== undefined ? data.labels[v] : '';
  };
  var whole = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
  function plot(parent, title, unit, series, ys, counts) {
    var el = document.createElement('div');
    parent.appendChild(el);
    var small = parent.className === 'small';
    new uPlot({
      title: title,
      width: small ? 420 : Math.max(360, Math.min(960, parent.clientWidth || 960)),
      height: small ? 180 : 240,
      // Runs are evenly spaced by index, half a step of room each side; one run sits in the middle.
      scales: { x: { time: false, range: function () { return [-0.5, xs.length - 0.5]; } } },
      cursor: { drag: { x: false, y: false } },
      axes: [
        { space: 120, incrs: whole, values: function (u, splits) { return splits.map(label); } },
        counts ? { label: unit, incrs: whole } : { label: unit },
      ],
      series: [{ label: 'run', value: function (u, v) { return v == null ? '' : label(v); } }].concat(
        series.map(function (s) {
          var points = { show: true, size: 6, fill: s[1] };
          return { label: s[0], stroke: s[1], width: 2, spanGaps: true, points: points };
        })
      ),
    }, [xs].concat(ys), el);
  }
  plot(document.getElementById('chart-rules'), 'Rules per run', 'rules',
    [['pass', '#2e7d32'], ['fail', '#c62828'], ['other', '#757575']],
    [data.pass, data.fail, data.other], true);
  plot(document.getElementById('chart-requests'), 'Requests per run', 'requests',
    [['requests', '#6a1b9a']], [data.requests], true);
  var latency = document.getElementById('chart-latency');
  data.latency.forEach(function (op) {
    plot(latency, op.operation, 'ms', [['p50', '#1565c0'], ['p95', '#ef6c00']], [op.p50, op.p95]);
  });
})();`;
