import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '../lib/cli.ts';
import { loadConfig } from '../lib/config.ts';
import { DOCUMENTS, loadContract, type DocumentName } from '../lib/contract/index.ts';
import { BASELINE_FILE, buildChangelog } from '../lib/docs/changelog.ts';
import { changelogAtom, changelogHtml, changelogMarkdown } from '../lib/docs/changelog-render.ts';
import { deprecations } from '../lib/docs/deprecations.ts';
import { CHANGELOG, ruleHref, RULES_FOLDER } from '../lib/docs/links.ts';
import { operationNotes, searchItems } from '../lib/docs/notes.ts';
import { rulePage } from '../lib/docs/rule-page.ts';
import { verification } from '../lib/docs/verified.ts';
import { projectPath } from '../lib/paths.ts';
import { readBaseline } from '../lib/spec-diff/baseline.ts';
import {
  docsIndex,
  publishedVerdicts,
  SPEC_DIFF_RULES,
  specDiffRulesPage,
} from '../lib/report/docs-index.ts';
import { HISTORY_FILE, readHistory } from '../lib/report/history.ts';
import type { ConformanceReport } from '../lib/report/model.ts';
import { scratchFolder } from '../lib/scratch.ts';
import { ruleSources } from './docs-sources.ts';

/**
 * Builds the published documentation into `<reports>/docs/`: each document with Redocly's
 * build-docs (its scripts inlined, so the pages work with no network) and an index page.
 */
const REDOCLY = projectPath('node_modules/@redocly/cli/bin/cli.js');
// Redoc's footer shows a logo from a CDN; an inline copy keeps the pages from reaching out.
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16">' +
  '<text x="0" y="12" font-family="sans-serif" font-size="12">Redocly</text></svg>';
const LOGO = `data:image/svg+xml,${encodeURIComponent(LOGO_SVG)}`;
// Redoc's sidebar search box writes its text in a grey too light to read (2.7:1); this one reads 6:1.
const REDOC_CONTRAST = 'div:has(> svg[data-component-name="icons/SearchIcon/SearchIcon"]){color:#57606a}';

commandLine(`Usage: npm run docs

  Builds the published documentation into <reports>/docs/ (CLM_REPORTS_DIR, default reports):
  one self-contained HTML page per contract document, made with Redocly and working offline, and
  an index of operations and rules with a search, the rule table of the gate on contract changes
  (spec-diff-rules.html), a page per rule (rules/<ID>.html: its text, operations, tests, faults
  and verdicts), and the changelog of openapi/ from git (changelog.html, .md, .json, .atom: each
  version's changes as the gate classifies them; comparisons cached in
  node_modules/.cache/clm-changelog). The index shows each rule's verdict from
  <reports>/conformance.json only when that run was full, had no fault switched on and ran to its
  end, naming its target, date and suite version; otherwise it shows none and says why. When that
  run was against production, the index and each operation say so with the date, and the nights
  of <reports>/history.jsonl show as a strip.

  -h, --help   this text`);

const started = Date.now();
const config = loadConfig();
const out = join(config.reportsDir, 'docs');
mkdirSync(join(out, RULES_FOLDER), { recursive: true });
const contract = await loadContract();
const today = new Date().toISOString().slice(0, 10);
const reportFile = join(config.reportsDir, 'conformance.json');
const report = existsSync(reportFile)
  ? (JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport)
  : undefined;
const verified = verification(report, readHistory(join(config.reportsDir, HISTORY_FILE)));
// Each operation's section in the documents ends with its note: production's verdicts, its rules.
const scratch = scratchFolder('docs');
const notesFile = join(scratch, 'notes.json');
writeFileSync(notesFile, JSON.stringify(operationNotes(contract, verified)));
const pages: Record<string, string> = {};
/** A document's page by Redocly: a process of its own, so both documents build side by side. */
function redocPage(name: DocumentName): Promise<void> {
  const file = join(out, `${name}.html`);
  const args = [REDOCLY, 'build-docs', name, '--inlineBundle', '-o', file];
  const child = spawn(process.execPath, [...args, '--title', contract.documents[name].info.title], {
    env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CLM_DOCS_NOTES: notesFile },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`redocly build-docs ${name} exited with ${code}`));
      const html = readFileSync(file, 'utf8')
        .replaceAll('https://cdn.redoc.ly/redoc/logo-mini-full.svg', LOGO)
        .replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', LOGO)
        .replace('<head>', `<head><link rel="icon" href="data:,"><style>${REDOC_CONTRAST}</style>`);
      writeFileSync(file, html);
      resolve();
    });
  });
}
const names = Object.keys(DOCUMENTS) as DocumentName[];
for (const name of names) pages[name] = `${name}.html`;
// The other pages are written while Redocly works.
const redoc = Promise.all(names.map(redocPage));

const baselinePath = projectPath(BASELINE_FILE);
const changelog = buildChangelog({
  today,
  ...(existsSync(baselinePath)
    ? { baseline: { file: BASELINE_FILE, accepted: readBaseline(baselinePath) } }
    : {}),
});
const context = {
  rulesOf: (id: string) => contract.operations.get(id)?.rules ?? [],
  deprecations: deprecations(contract, today),
};
writeFileSync(join(out, `${CHANGELOG}.html`), changelogHtml(changelog, context));
writeFileSync(join(out, `${CHANGELOG}.md`), changelogMarkdown(changelog, context));
writeFileSync(join(out, `${CHANGELOG}.json`), `${JSON.stringify(changelog, null, 1)}\n`);
writeFileSync(join(out, `${CHANGELOG}.atom`), changelogAtom(changelog, context));

const sources = ruleSources(config.reportsDir);
for (const rule of contract.rules)
  writeFileSync(join(out, ruleHref(rule.id)), rulePage(contract, rule, sources, verified, pages));
writeFileSync(
  join(out, 'index.html'),
  docsIndex(contract, pages, report, { verification: verified, search: searchItems(contract, changelog) }),
);
writeFileSync(join(out, SPEC_DIFF_RULES), specDiffRulesPage());
await redoc;
const published = publishedVerdicts(report);
console.log(
  `Documentation in ${out}/: index.html, ${Object.values(pages).join(', ')}, ${SPEC_DIFF_RULES}, ` +
    `${CHANGELOG}.html (.md, .json, .atom), ${RULES_FOLDER}/ (${contract.rules.length} rules).\n` +
    (published.report ? `Verdicts from ${published.source}.` : `No verdicts: ${published.why}.`) +
    `\nProduction: ${'why' in verified ? `not verified (${verified.why})` : `verified on ${verified.at}`}.` +
    `\nChangelog: ${changelog.entries.length} versions; comparisons ${changelog.cache.hits} cached, ` +
    `${changelog.cache.made} made. Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
);
