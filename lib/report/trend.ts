import { regressions, targetOf, type HistoryRecord, type Regressions, type RuleTrend } from './history.ts';
import type { Verdict } from './model.ts';
import { escapeHtml as escape, htmlPage, htmlRow } from './html.ts';
import { CHART_SCRIPT, chartAssets, chartData, charts, when, type ChartAssets } from './trend-charts.ts';

export interface TrendOptions {
  /** Runs the gate compares the newest with (see `regressions`). */
  window?: number;
  assets?: ChartAssets;
  /** The most runs the rule grid shows, the newest ones. */
  columns?: number;
}

const verdictClass = (v: string) => v.replaceAll(' ', '-');
const MARK: Record<Verdict | 'absent', string> = {
  pass: '✓',
  fail: '✗',
  blocked: '⊘',
  'not run': '…',
  skipped: '–',
  'not covered': '·',
  absent: ' ',
};

const NO_RUNS =
  'No runs yet: the history is empty. Each full conformance run adds one line to ' +
  '<code>history.jsonl</code> in the reports folder.';
const NO_FULL_RUN = 'No full run yet: only parts of the suite, kept for their walk of the change feed.';

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
      ? `<p class="empty" id="no-runs">${NO_RUNS}</p>`
      : `<p class="empty" id="no-runs">${NO_FULL_RUN}</p>${feedNights(history)}`;
  const data = JSON.stringify(chartData(runs)).replace(/</g, '\\u003c');
  const script = `<script type="application/json" id="trend-data">${data}</script>`;
  return htmlPage({
    title: 'Conformance trend',
    body: `<h1>Conformance trend</h1>\n${body}\n${script}`,
    styles: [assets.css, STYLE],
    scripts: [assets.js, CHART_SCRIPT],
  });
}

function summary(newest: HistoryRecord, gate: Regressions, others: number): string {
  const list = (title: string, trends: RuleTrend[], id: string) =>
    trends.length === 0
      ? ''
      : `<h3>${escape(title)}</h3><ul id="${id}">${trends
          .map(
            (t) =>
              `<li><b>${escape(t.rule)}</b> <span class="seq">${escape(t.verdicts.join(' → '))}</span>` +
              `${t.findings.length ? `: ${escape(t.findings.join('; '))}` : ''}</li>`,
          )
          .join('')}</ul>`;
  const compared =
    gate.compared.length === 0
      ? 'The only run of this target: nothing to compare with yet.'
      : `Compared with the ${gate.compared.length} run(s) before it: ${gate.regressed.length} regressed, ` +
        `${gate.notRun.length} not run, ${gate.flaky.length} flaky, ${gate.fixed.length} fixed.`;
  const findings = newest.findings.map(
    (f) => `<li>${escape(f.title)} <span class="rules">${escape(f.rules.join(', '))}</span></li>`,
  );
  const faults = newest.faults.length ? `, faults ${escape(newest.faults.join(', '))}` : '';
  const ended = escape(when(newest.at));
  const incomplete = newest.complete ? '' : ' (incomplete)';
  const suite = newest.commit ? `, suite ${escape(newest.commit.slice(0, 12))}` : '';
  return `<section id="summary" class="${verdictClass(newest.verdict)}">
<p class="verdict">Newest run: <b>${escape(newest.verdict.toUpperCase())}</b>, ended ${ended}
on ${escape(newest.targetKind)} ${escape(newest.target ?? newest.baseUrl)}${faults}${suite}${incomplete}.</p>
<p>${escape(compared)}${others ? ` ${others} run(s) of other targets are not shown.` : ''}</p>
${list('Regressed', gate.regressed, 'regressed')}
${list('Passed before, not run now', gate.notRun, 'not-run')}
${list('Flaky', gate.flaky, 'flaky')}
${list('Fixed', gate.fixed, 'fixed')}
${findings.length ? `<h3>Findings of the newest run</h3><ul id="findings">${findings.join('')}</ul>` : ''}
</section>`;
}

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
    const tags =
      (regressed.has(rule) ? ' <span class="tag regressed">regressed</span>' : '') +
      (flaky.has(rule) ? ' <span class="tag flaky">flaky</span>' : '');
    const cells = runs.map((r) => {
      const v = r.rules[rule] ?? 'absent';
      const title = escape(`${rule} ${when(r.at)}: ${v}`);
      return `<td class="${verdictClass(v)}" title="${title}">${MARK[v]}</td>`;
    });
    const head = `<th scope="row">${escape(rule)}${tags}</th>`;
    return `<tr${flaky.has(rule) ? ' class="flaky"' : ''}>${head}${cells.join('')}</tr>`;
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
    const verdict = feed!.gaps.length ? 'fail' : feed!.check === 'checked' ? 'pass' : 'not-run';
    const night = escape(when(at));
    return `<tr class="${verdict}"><td>${night}</td><td>${feed!.delivered}</td><td>${found}</td></tr>`;
  });
  return `<section id="feed-nights">
<h2>The feed across nights</h2>
<p>Each night follows the next link the night before kept, and compares what it delivers with a fresh
<code>since</code> at the last change seen.</p>
<table id="feed-table"><thead><tr><th>Night</th><th>Changes delivered</th><th>Gaps found</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
</section>`;
}

const DRIFT_HEAD = htmlRow(['Operation', 'Status', 'Field', 'First seen', 'Last seen', 'Runs'], 'th');

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
      return htmlRow([
        escape(operation),
        escape(status),
        `<code>${escape(field.join(' '))}</code>${fresh}${gone}`,
        escape(when(e.first)),
        escape(when(e.last)),
        e.runs,
      ]);
    });
  return `<section id="drift">
<h2>Drift</h2>
<table id="drift-table"><thead>${DRIFT_HEAD}</thead>
<tbody>${rows.join('\n')}</tbody></table>
</section>`;
}

const STYLE = `h1{margin-top:0}
.uplot{margin-bottom:1.5em}
#summary{border-left:6px solid #9e9e9e;padding:.2em 1em;margin-bottom:1.5em}
#summary.fail{border-color:#c62828}#summary.pass{border-color:#2e7d32}
#summary.incomplete{border-color:#ef6c00}
.seq,.rules{color:#555;font-size:90%}
.empty{font-size:120%;padding:1em;background:#f5f5f5}
.small{display:flex;flex-wrap:wrap;gap:1em}
.scroll{overflow-x:auto}
th,td{padding:2px 6px}
#rule-grid td{text-align:center;min-width:1.5em}
#rule-grid thead th{font-weight:normal;font-size:80%;white-space:nowrap}
.pass{background:#c8e6c9}.fail{background:#ffcdd2}.not-run{background:#ffe0b2}
.skipped,.not-covered{background:#eeeeee}
#summary.pass,#summary.fail,#summary.incomplete{background:none}
tr.flaky th{background:#fff9c4}
.tag{font-size:75%;padding:0 4px;border-radius:3px;background:#eee}
.tag.regressed{background:#c62828;color:#fff}.tag.flaky{background:#f9a825}
.tag.new{background:#1565c0;color:#fff}
.legend span{padding:0 4px}`;
