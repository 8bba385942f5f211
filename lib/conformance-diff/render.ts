import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../client/redact.ts';
import { shownBound } from '../config.ts';
import { escapeHtml as escape, htmlPage, htmlRow } from '../report/html.ts';
import { CLASS_TITLES, type DiffClass, type Difference } from './compare.ts';
import type { DiffOutcome, OperationResult, PairResult } from './run.ts';

export interface DiffReport extends DiffOutcome {
  /** `same`: no difference and every pair compared that had its data; `incomplete`: the run stopped. */
  verdict: 'same' | 'different' | 'incomplete';
  summary: string;
  startedAt: string;
  endedAt: string;
  mock: { seed: number; now: string; baseUrl: string };
  /** Bounds of the run; null: none. */
  live: { baseUrl: string; imagesUrl?: string; now: string; budget: number | null; perSecond: number | null };
  contract: { version: string; hash: string };
  suiteCommit: string | null;
}

export const CLASS_MEANINGS: Record<DiffClass, string> = {
  'mock-wrong':
    "the service's answer conforms to the contract and the mock's does not, or the mock refuses a " +
    'request the service accepts and the contract documents as a success',
  'service-breaks-contract':
    "the service's answer does not conform to the contract (status, media type, schema, checks)",
  'contract-silent': 'both answers conform, yet they differ: the contract allows both',
};
const CLASSES = Object.keys(CLASS_TITLES) as DiffClass[];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function summaryLine(r: Omit<DiffReport, 'summary'>): string {
  const classes = CLASSES.map((c) => `${r.counts[c]} ${CLASS_TITLES[c]}`).join(', ');
  const ops = r.operations.filter((o) => o.results.some((p) => p.differences.length > 0)).length;
  const stop = r.stopped ? `; INCOMPLETE: ${r.stopped}` : '';
  return (
    `Conformance diff, mock against ${r.live.baseUrl}: ${plural(r.differences, 'difference')}` +
    `${r.differences ? ` in ${plural(ops, 'operation')} (${classes})` : ''}; ` +
    `${r.pairs.compared} of ${plural(r.pairs.total, 'request')} compared, ${r.pairs.skipped} skipped, ` +
    `${r.pairs.notRun} not run${stop}.`
  );
}

export function diffReport(
  outcome: DiffOutcome,
  meta: Omit<DiffReport, keyof DiffOutcome | 'verdict' | 'summary'>,
): DiffReport {
  const verdict = outcome.differences > 0 ? 'different' : outcome.stopped ? 'incomplete' : 'same';
  const report = { ...outcome, ...meta, verdict } as const;
  return { ...report, summary: summaryLine(report) };
}

/** Operations with differences first, then the rest, each in the contract's order. */
const ordered = (r: DiffReport) => [
  ...r.operations.filter((o) => o.results.some((p) => p.differences.length > 0)),
  ...r.operations.filter((o) => o.results.every((p) => p.differences.length === 0)),
];

/** Where an answer stands against the contract, and what of it was left uncompared. */
const standing = (a: NonNullable<PairResult['mock']>) =>
  (a.problems.length ? `; out of the contract: ${a.problems.join('; ')}` : '; conforms to the contract') +
  a.notes.map((n) => `; ${n}`).join('');
const answerText = (a: PairResult['mock']) => (a ? `${a.status} ${a.mediaType}` : '');
const resultText = (p: PairResult) =>
  p.skipped ?? (p.differences.length ? plural(p.differences.length, 'difference') : 'same');

function differenceLine(d: Difference): string {
  const at = d.at ? ` \`${d.at}\`` : '';
  return `**${CLASS_TITLES[d.class]}**: ${d.aspect}${at}: mock ${d.mock}; service ${d.live}. Why: ${d.why}.`;
}

function operationMarkdown(o: OperationResult): string[] {
  const lines = [
    `## ${o.operation}: ${o.method} ${o.path}`,
    '',
    '| Request | Mock | Service | Result |',
    '| --- | --- | --- | --- |',
  ];
  for (const p of o.results)
    lines.push(
      `| ${cell(p.title)} | ${answerText(p.mock)} | ${answerText(p.live)} | ${cell(resultText(p))} |`,
    );
  for (const p of o.results.filter((p) => p.differences.length > 0)) {
    lines.push('', `### ${p.request}`, '');
    for (const [side, a] of [
      ['Mock', p.mock],
      ['Service', p.live],
    ] as const)
      if (a) lines.push(`- ${side}: \`${a.url}\` answered ${a.status} ${a.mediaType}${standing(a)}`);
    lines.push('', ...p.differences.map((d, i) => `${i + 1}. ${differenceLine(d)}`));
  }
  return [...lines, ''];
}

function metaLines(r: DiffReport): string[] {
  const images = r.live.imagesUrl ? ` and ${r.live.imagesUrl}` : '';
  const suite = r.suiteCommit ? r.suiteCommit.slice(0, 12) : 'not a git checkout';
  const bounds = `budget ${shownBound(r.live.budget, '')}, pace ${shownBound(r.live.perSecond, ' per second')}`;
  return [
    `- Mock: the bundled mock in process, seed ${r.mock.seed}, clock ${r.mock.now}, ${r.mock.baseUrl}`,
    `- Service: ${r.live.baseUrl}${images}, \`since\` counted from ${r.live.now}`,
    `- Contract: ${r.contract.version} (${r.contract.hash}); suite ${suite}`,
    `- Time: ${r.startedAt} to ${r.endedAt}`,
    `- Requests sent: ${r.sent.mock} to the mock, ${r.sent.live} to the service (${bounds})`,
  ];
}

const HOW_COMPARED =
  'Each request goes to both sides, each with its own data and key; the pair is compared by status, ' +
  'media type, the headers the contract names (presence), and the shape of the body (fields by JSON ' +
  "pointer, array indices as `*`, JSON types, array sizes against the contract's bounds), never by " +
  'values; the feed, walked back in time to a full page on each side, also by page size against its ' +
  'limit and by the shape of its `next` links. Classes:';

export function diffMarkdown(r: DiffReport): string {
  return [
    '# Conformance diff: the mock against the service',
    '',
    `**${r.verdict.toUpperCase()}**. ${r.summary}`,
    '',
    ...metaLines(r),
    '',
    HOW_COMPARED,
    '',
    ...CLASSES.map((c) => `- **${CLASS_TITLES[c]}**: ${CLASS_MEANINGS[c]}.`),
    '',
    ...ordered(r).flatMap(operationMarkdown),
  ].join('\n');
}

/** Escaped, with the Markdown's `code` spans kept as code. */
const inline = (s: string) => escape(s).replace(/`([^`]+)`/g, '<code>$1</code>');

const STYLE = `body{max-width:72rem}
.same{color:#1a7f37}.different{color:#b42318}.incomplete{color:#9a6700}
.mock-wrong{background:#fff4d6}.service-breaks-contract{background:#fde2e1}
.contract-silent{background:#e8eef9}
li{margin:.25rem 0}`;

function differenceHtml(d: Difference): string {
  const at = d.at ? ` <code>${escape(d.at)}</code>` : '';
  return (
    `<li class="${d.class}"><strong>${escape(CLASS_TITLES[d.class])}</strong>: ${escape(d.aspect)}${at}: ` +
    `mock ${escape(d.mock)}; service ${escape(d.live)}. Why: ${escape(d.why)}.</li>`
  );
}

function operationHtml(o: OperationResult): string {
  const rows = o.results
    .map((p) =>
      htmlRow([
        inline(p.title),
        escape(answerText(p.mock)),
        escape(answerText(p.live)),
        escape(resultText(p)),
      ]),
    )
    .join('');
  const details = o.results
    .filter((p) => p.differences.length > 0)
    .map((p) => {
      const sides = [
        ['Mock', p.mock],
        ['Service', p.live],
      ] as const;
      const answers = sides
        .map(([side, a]) =>
          a
            ? `<li>${side}: <code>${escape(a.url)}</code> answered ${a.status} ` +
              `${escape(a.mediaType)}${escape(standing(a))}</li>`
            : '',
        )
        .join('');
      const items = p.differences.map(differenceHtml).join('');
      return `<h3>${inline(p.request)}</h3><ul>${answers}</ul><ol>${items}</ol>`;
    })
    .join('');
  const head = htmlRow(['Request', 'Mock', 'Service', 'Result'], 'th');
  const title = escape(`${o.operation}: ${o.method} ${o.path}`);
  return `<section><h2>${title}</h2><table>${head}${rows}</table>${details}</section>`;
}

export function diffHtml(r: DiffReport): string {
  const meta = metaLines(r).map((l) => `<li>${inline(l.slice(2))}</li>`);
  const classes = CLASSES.map(
    (c) => `<li class="${c}"><strong>${escape(CLASS_TITLES[c])}</strong>: ${escape(CLASS_MEANINGS[c])}.</li>`,
  );
  const body = `<h1>Conformance diff: the mock against the service</h1>
<p class="${r.verdict}"><strong>${r.verdict.toUpperCase()}</strong>. ${escape(r.summary)}</p>
<ul>${meta.join('')}</ul><ul>${classes.join('')}</ul>
${ordered(r).map(operationHtml).join('\n')}`;
  return htmlPage({ title: 'Conformance diff', body, styles: [STYLE] });
}

/** Writes diff.md, diff.json and diff.html, every text redacted once more on its way out. */
export function writeDiffReports(dir: string, report: DiffReport, redactor: Redactor): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['diff.md', diffMarkdown(report)],
    ['diff.json', `${JSON.stringify(report, null, 2)}\n`],
    ['diff.html', diffHtml(report)],
  ];
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, redactor.text(text));
    return path;
  });
}
