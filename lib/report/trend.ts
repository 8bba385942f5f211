import { readFileSync } from 'node:fs';
import { projectPath } from '../contract/index.ts';
import { regressions, targetOf, type HistoryRecord, type Regressions, type RuleTrend } from './history.ts';
import type { Verdict } from './model.ts';
import { escape } from './render.ts';

/** The charting library's script and style sheet, inlined so the page makes no request. */
export interface ChartAssets {
  js: string;
  css: string;
}

export function chartAssets(): ChartAssets {
  const dist = (file: string) => readFileSync(projectPath(`node_modules/uplot/dist/${file}`), 'utf8');
  return { js: dist('uPlot.iife.min.js'), css: dist('uPlot.min.css') };
}

export interface TrendOptions {
  /** Runs the gate compares the newest with (see `regressions`). */
  window?: number;
  assets?: ChartAssets;
  /** The most runs the rule grid shows, the newest ones. */
  columns?: number;
}

const when = (at: string) => at.replace('T', ' ').slice(0, 16);
const verdictClass = (v: string) => v.replaceAll(' ', '-');
const MARK: Record<Verdict | 'absent', string> = {
  pass: '✓',
  fail: '✗',
  'not run': '…',
  skipped: '–',
  'not covered': '·',
  absent: ' ',
};
// Inline text must not close the element it sits in.
const inline = (text: string, tag: string) => text.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);

/** The page: the newest run's failures first, then charts over time, the rule grid and the drift. */
export function trendHtml(history: HistoryRecord[], options: TrendOptions = {}): string {
  const assets = options.assets ?? chartAssets();
  const gate = regressions(history, options.window === undefined ? {} : { window: options.window });
  const newest = gate.newest;
  const same = newest ? history.filter((r) => targetOf(r) === targetOf(newest)) : [];
  // A part of the suite is kept only for its feed walk: its rules are not the night's.
  const runs = same.filter((r) => !r.partial);
  const body = newest
    ? [
        summary(newest, gate, history.filter((r) => !r.partial).length - runs.length),
        charts(),
        grid(runs.slice(-(options.columns ?? 40)), gate),
        feedNights(same),
        drift(runs, newest),
      ].join('\n')
    : history.length === 0
      ? '<p class="empty" id="no-runs">No runs yet: the history is empty. Each full conformance run adds one line to <code>history.jsonl</code> in the reports folder.</p>'
      : `<p class="empty" id="no-runs">No full run yet: only parts of the suite, kept for their walk of the change feed.</p>${feedNights(history)}`;
  const data = JSON.stringify(chartData(runs)).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance trend</title>
<link rel="icon" href="data:,">
<style>${inline(assets.css, 'style')}</style>
<style>${STYLE}</style>
</head>
<body>
<h1>Conformance trend</h1>
${body}
<script type="application/json" id="trend-data">${data}</script>
<script>${inline(assets.js, 'script')}</script>
<script>${CLIENT}</script>
</body>
</html>
`;
}

function summary(newest: HistoryRecord, gate: Regressions, others: number): string {
  const list = (title: string, trends: RuleTrend[], id: string) =>
    trends.length === 0
      ? ''
      : `<h3>${escape(title)}</h3><ul id="${id}">${trends
          .map(
            (t) =>
              `<li><b>${escape(t.rule)}</b> <span class="seq">${escape(t.verdicts.join(' → '))}</span>${t.findings.length ? `: ${escape(t.findings.join('; '))}` : ''}</li>`,
          )
          .join('')}</ul>`;
  const compared =
    gate.compared.length === 0
      ? 'The only run of this target: nothing to compare with yet.'
      : `Compared with the ${gate.compared.length} run(s) before it: ${gate.regressed.length} regressed, ${gate.notRun.length} not run, ${gate.flaky.length} flaky, ${gate.fixed.length} fixed.`;
  const findings = newest.findings.map(
    (f) => `<li>${escape(f.title)} <span class="rules">${escape(f.rules.join(', '))}</span></li>`,
  );
  return `<section id="summary" class="${verdictClass(newest.verdict)}">
<p class="verdict">Newest run: <b>${escape(newest.verdict.toUpperCase())}</b>, ended ${escape(when(newest.at))}
on ${escape(newest.targetKind)} ${escape(newest.baseUrl)}${newest.faults.length ? `, faults ${escape(newest.faults.join(', '))}` : ''}${newest.commit ? `, suite ${escape(newest.commit.slice(0, 12))}` : ''}${newest.complete ? '' : ' (incomplete)'}.</p>
<p>${escape(compared)}${others ? ` ${others} run(s) of other targets are not shown.` : ''}</p>
${list('Regressed', gate.regressed, 'regressed')}
${list('Passed before, not run now', gate.notRun, 'not-run')}
${list('Flaky', gate.flaky, 'flaky')}
${list('Fixed', gate.fixed, 'fixed')}
${findings.length ? `<h3>Findings of the newest run</h3><ul id="findings">${findings.join('')}</ul>` : ''}
</section>`;
}

const charts = () => `<section id="charts">
<h2>Over time</h2>
<div id="chart-rules"></div>
<div id="chart-requests"></div>
<h3>Latency per operation (ms)</h3>
<div id="chart-latency" class="small"></div>
</section>`;

function grid(runs: HistoryRecord[], gate: Regressions): string {
  const flaky = new Set(gate.flaky.map((t) => t.rule));
  const regressed = new Set(gate.regressed.map((t) => t.rule));
  const newest = runs.at(-1);
  // Failures first: regressed, then flaky, then failing now, then the rest by id.
  const rank = (rule: string) =>
    regressed.has(rule) ? 0 : flaky.has(rule) ? 1 : newest?.rules[rule] === 'fail' ? 2 : 3;
  const rules = [...new Set(runs.flatMap((r) => Object.keys(r.rules)))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  const head = runs.map((r) => `<th scope="col" title="${escape(r.at)}">${escape(when(r.at))}</th>`).join('');
  const rows = rules.map((rule) => {
    const tags = `${regressed.has(rule) ? ' <span class="tag regressed">regressed</span>' : ''}${flaky.has(rule) ? ' <span class="tag flaky">flaky</span>' : ''}`;
    const cells = runs.map((r) => {
      const v = r.rules[rule] ?? 'absent';
      return `<td class="${verdictClass(v)}" title="${escape(`${rule} ${when(r.at)}: ${v}`)}">${MARK[v]}</td>`;
    });
    return `<tr${flaky.has(rule) ? ' class="flaky"' : ''}><th scope="row">${escape(rule)}${tags}</th>${cells.join('')}</tr>`;
  });
  const legend = (Object.keys(MARK) as (keyof typeof MARK)[])
    .filter((v) => v !== 'absent')
    .map((v) => `<span class="${verdictClass(v)}">${MARK[v]} ${escape(v)}</span>`)
    .join(' ');
  return `<section id="rules">
<h2>Rules over time</h2>
<p class="legend">${legend}</p>
<div class="scroll"><table id="rule-grid"><thead><tr><th scope="col">Rule</th>${head}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>
</section>`;
}

/** Night by night: the changes the feed walk delivered, and what the check across nights found. */
function feedNights(runs: HistoryRecord[]): string {
  const nights = runs.filter((r) => r.feed);
  if (nights.length === 0) return '';
  const rows = nights.map(({ at, feed }) => {
    const found = feed!.gaps.length
      ? `<ul>${feed!.gaps.map((g) => `<li>${escape(g)}</li>`).join('')}</ul>`
      : feed!.check === 'checked'
        ? 'none'
        : escape(feed!.check);
    return `<tr class="${feed!.gaps.length ? 'fail' : feed!.check === 'checked' ? 'pass' : 'not-run'}"><td>${escape(when(at))}</td><td>${feed!.delivered}</td><td>${found}</td></tr>`;
  });
  return `<section id="feed-nights">
<h2>The feed across nights</h2>
<p>Each night follows the next link the night before kept, and compares what it delivers with a fresh <code>since</code> at the last change seen.</p>
<table id="feed-table"><thead><tr><th>Night</th><th>Changes delivered</th><th>Gaps found</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</section>`;
}

function drift(runs: HistoryRecord[], newest: HistoryRecord): string {
  const seen = new Map<string, { first: string; last: string; runs: number }>();
  for (const run of runs)
    for (const key of new Set(run.drift)) {
      const entry = seen.get(key) ?? { first: run.at, last: run.at, runs: 0 };
      entry.last = run.at;
      entry.runs++;
      seen.set(key, entry);
    }
  if (seen.size === 0) return '<section id="drift"><h2>Drift</h2><p>No drift in any run.</p></section>';
  // The newest fields first: drift that appeared lately is the news.
  const rows = [...seen.entries()]
    .sort(([ka, a], [kb, b]) => Date.parse(b.first) - Date.parse(a.first) || ka.localeCompare(kb))
    .map(([key, e]) => {
      const [operation = '', status = '', ...field] = key.split(' ');
      const fresh = e.first === newest.at ? ' <span class="tag new">new</span>' : '';
      const gone = e.last === newest.at ? '' : ' <span class="tag">not in the newest run</span>';
      return `<tr><td>${escape(operation)}</td><td>${escape(status)}</td><td><code>${escape(field.join(' '))}</code>${fresh}${gone}</td><td>${escape(when(e.first))}</td><td>${escape(when(e.last))}</td><td>${e.runs}</td></tr>`;
    });
  return `<section id="drift">
<h2>Drift</h2>
<table id="drift-table"><thead><tr><th>Operation</th><th>Status</th><th>Field</th><th>First seen</th><th>Last seen</th><th>Runs</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</section>`;
}

/** What the charts draw, one value per run, oldest first; null where a run has no value. */
function chartData(runs: HistoryRecord[]) {
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

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{margin-top:0}
.uplot{margin-bottom:1.5em}
#summary{border-left:6px solid #9e9e9e;padding:.2em 1em;margin-bottom:1.5em}
#summary.fail{border-color:#c62828}#summary.pass{border-color:#2e7d32}#summary.incomplete{border-color:#ef6c00}
.seq,.rules{color:#555;font-size:90%}
.empty{font-size:120%;padding:1em;background:#f5f5f5}
.small{display:flex;flex-wrap:wrap;gap:1em}
.scroll{overflow-x:auto}
table{border-collapse:collapse}
th,td{border:1px solid #ddd;padding:2px 6px;text-align:left}
#rule-grid td{text-align:center;min-width:1.5em}
#rule-grid thead th{font-weight:normal;font-size:80%;white-space:nowrap}
.pass{background:#c8e6c9}.fail{background:#ffcdd2}.not-run{background:#ffe0b2}.skipped,.not-covered{background:#eeeeee}
#summary.pass,#summary.fail,#summary.incomplete{background:none}
tr.flaky th{background:#fff9c4}
.tag{font-size:75%;padding:0 4px;border-radius:3px;background:#eee}
.tag.regressed{background:#c62828;color:#fff}.tag.flaky{background:#f9a825}.tag.new{background:#1565c0;color:#fff}
.legend span{padding:0 4px}`;

// Runs in the browser: draws the charts from the page's own data with the inlined uPlot.
const CLIENT = `(function () {
  var data = JSON.parse(document.getElementById('trend-data').textContent);
  if (data.labels.length === 0) return;
  var xs = data.labels.map(function (_, i) { return i; });
  var label = function (v) { return v === Math.round(v) && data.labels[v] !== undefined ? data.labels[v] : ''; };
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
          return { label: s[0], stroke: s[1], width: 2, spanGaps: true, points: { show: true, size: 6, fill: s[1] } };
        })
      ),
    }, [xs].concat(ys), el);
  }
  plot(document.getElementById('chart-rules'), 'Rules per run', 'rules',
    [['pass', '#2e7d32'], ['fail', '#c62828'], ['other', '#757575']], [data.pass, data.fail, data.other], true);
  plot(document.getElementById('chart-requests'), 'Requests per run', 'requests', [['requests', '#6a1b9a']], [data.requests], true);
  var latency = document.getElementById('chart-latency');
  data.latency.forEach(function (op) {
    plot(latency, op.operation, 'ms', [['p50', '#1565c0'], ['p95', '#ef6c00']], [op.p50, op.p95]);
  });
})();`;
