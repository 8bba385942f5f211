import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine } from '../lib/cli.ts';
import { loadConfig } from '../lib/config.ts';
import { DOCUMENTS, loadContract, type DocumentName } from '../lib/contract/index.ts';
import { projectPath } from '../lib/paths.ts';
import {
  docsIndex,
  publishedVerdicts,
  SPEC_DIFF_RULES,
  specDiffRulesPage,
} from '../lib/report/docs-index.ts';
import type { ConformanceReport } from '../lib/report/model.ts';

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

commandLine(`Usage: npm run docs

  Builds the published documentation into <reports>/docs/ (CLM_REPORTS_DIR, default reports):
  one self-contained HTML page per contract document, made with Redocly and working offline, and
  an index of operations and rules, and the rule table of the gate on contract changes
  (spec-diff-rules.html). The index shows each rule's verdict from <reports>/conformance.json
  only when that run was full, had no fault switched on and ran to its end, naming its target,
  date and suite version; otherwise it shows none and says why.

  -h, --help   this text`);

const config = loadConfig();
const out = join(config.reportsDir, 'docs');
mkdirSync(out, { recursive: true });
const contract = await loadContract();
const pages: Record<string, string> = {};
for (const name of Object.keys(DOCUMENTS) as DocumentName[]) {
  const file = join(out, `${name}.html`);
  execFileSync(
    process.execPath,
    [
      REDOCLY,
      'build-docs',
      name,
      '--inlineBundle',
      '-o',
      file,
      '--title',
      contract.documents[name].info.title,
    ],
    {
      env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const html = readFileSync(file, 'utf8')
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini-full.svg', LOGO)
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', LOGO)
    .replace('<head>', '<head><link rel="icon" href="data:,">');
  writeFileSync(file, html);
  pages[name] = `${name}.html`;
}
const reportFile = join(config.reportsDir, 'conformance.json');
const report = existsSync(reportFile)
  ? (JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport)
  : undefined;
writeFileSync(join(out, 'index.html'), docsIndex(contract, pages, report));
writeFileSync(join(out, SPEC_DIFF_RULES), specDiffRulesPage());
const published = publishedVerdicts(report);
console.log(
  `Documentation in ${out}/: index.html, ${Object.values(pages).join(', ')}, ${SPEC_DIFF_RULES}.\n` +
    (published.report ? `Verdicts from ${published.source}.` : `No verdicts: ${published.why}.`),
);
