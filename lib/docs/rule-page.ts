import type { Contract, Rule } from '../contract/index.ts';
import { escapeHtml as escape } from '../report/html.ts';
import { docsPage } from './links.ts';
import { notPassingText, stripHtml, verifiedText, type Verification } from './verified.ts';

/** A test that checks a rule: its title as Playwright lists it, and its file. */
export interface RuleTest {
  title: string;
  file: string;
}

/** A fault of the mock that breaks a rule, and which tests caught it (when a mutation run says). */
export interface RuleFault {
  fault: string;
  kind: string;
  description: string;
  /** The mutation run's outcome against the mock; none when only the catalogue is known. */
  mock?: { killed: boolean; killedBy: string[] };
  /** Its outcome with the suite in live mode; `notLive` says why a live run cannot see it. */
  live?: { killed: boolean; killedBy: string[] };
  notLive?: string;
}

/** What is known of every rule's tests and faults, and where the faults' outcomes come from. */
export interface RuleSources {
  tests: (rule: string) => RuleTest[];
  faults: (rule: string) => RuleFault[];
  /** `the mutation run of …`, or that only the catalogue is known. */
  faultsFrom: string;
}

const UP = '../';

function testsHtml(tests: RuleTest[]): string {
  if (!tests.length) return '<p>No test names this rule: it is not covered.</p>';
  return `<ol>${tests
    .map(
      (t, i) =>
        `<li id="test-${i + 1}">${escape(t.title)} <span class="muted">in <code>${escape(t.file)}</code></span></li>`,
    )
    .join('\n')}</ol>`;
}

function caught(tests: RuleTest[], by: string[]): string {
  if (!by.length) return '';
  const link = (title: string) => {
    const i = tests.findIndex((t) => t.title === title || title.endsWith(t.title));
    return i < 0 ? escape(title) : `<a href="#test-${i + 1}">${escape(title)}</a>`;
  };
  return `<br><span class="muted">caught by</span> ${by.slice(0, 5).map(link).join('; ')}${by.length > 5 ? ` and ${by.length - 5} more` : ''}`;
}

function faultsHtml(faults: RuleFault[], tests: RuleTest[], from: string): string {
  if (!faults.length) return '<p>No fault of the mock breaks this rule.</p>';
  const outcome = (o: RuleFault['mock']) =>
    o ? (o.killed ? '<b class="pass">caught</b>' : '<b class="fail">survived</b>') : 'not run';
  const rows = faults.map(
    (f) =>
      `<tr id="fault-${escape(f.fault)}"><td><code>${escape(f.fault)}</code> <span class="muted">(${f.kind})</span></td>` +
      `<td>${escape(f.description)}</td>` +
      `<td>${outcome(f.mock)}${caught(tests, f.mock?.killedBy ?? [])}</td>` +
      `<td>${f.live ? outcome(f.live) + caught(tests, f.live.killedBy) : escape(f.notLive ?? 'not checked live')}</td></tr>`,
  );
  return `<p class="muted">From ${escape(from)}.</p>
<table><thead><tr><th>Fault</th><th>What it breaks</th><th>Mock</th><th>Live</th></tr></thead><tbody>
${rows.join('\n')}</tbody></table>`;
}

function verdictHtml(v: Verification, rule: string): string {
  if ('why' in v) return `<p>Not verified against production: ${escape(v.why)}.</p>`;
  const verdict = v.verdicts[rule];
  const line = `<p>${escape(verifiedText(v, [rule]))}: <b class="${(verdict ?? 'not-covered').replace(' ', '-')}">${verdict ?? 'not decided'}</b>.</p>`;
  const failing = verdict && verdict !== 'pass' ? `<p>${escape(notPassingText(v, rule))}</p>` : '';
  return `${line}${failing}<p>The last nights: ${stripHtml(v, rule)}</p>`;
}

/**
 * A rule's page: what it says, the operations that carry it, the tests that check it, the faults
 * that prove those tests catch a break of it, and its verdict against production over the nights.
 */
export function rulePage(
  contract: Contract,
  rule: Rule,
  sources: RuleSources,
  verification: Verification,
  pages: Record<string, string>,
): string {
  const operations = [...contract.operations.values()].filter((op) => op.rules.includes(rule.id));
  const tests = sources.tests(rule.id);
  const faults = sources.faults(rule.id);
  const ops = operations.length
    ? `<ul>${operations
        .map(
          (op) =>
            `<li><a href="${UP}${pages[op.document]}#operation/${op.id}"><code>${op.method.toUpperCase()} ${escape(op.path)}</code></a> ` +
            `${escape(op.summary)} <a class="muted" href="${UP}index.html#op-${op.id}">(index)</a></li>`,
        )
        .join('\n')}</ul>`
    : '<p>No operation names it in <code>x-rules</code>: it holds across the service.</p>';
  const body = `<h1>${rule.id}</h1>
<p class="statement">${escape(rule.text)}</p>
<p class="muted">Level ${rule.level}; checkable ${rule.where.join(', ')}${rule.live ? ` (${escape(rule.live)})` : ''}.</p>
<p><a href="#tests">Tests (${tests.length})</a> · <a href="#faults">Faults (${faults.length})</a> · <a href="#production">Production</a></p>
<h2>Operations that carry it</h2>
${ops}
<h2 id="tests">Tests that check it</h2>
${testsHtml(tests)}
<h2 id="faults">Faults that prove the tests catch it</h2>
${faultsHtml(faults, tests, sources.faultsFrom)}
<h2 id="production">Against production</h2>
${verdictHtml(verification, rule.id)}`;
  return docsPage(`${rule.id}: ${rule.text.slice(0, 80)}`, body, {
    up: UP,
    styles: ['.statement{font-size:1.2em}'],
  });
}
