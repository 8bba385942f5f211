import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorAnnotations } from './ci.ts';
import type { ConformanceReport } from './model.ts';
import { conformanceHtml } from './render-html.ts';
import { conformanceMarkdown, driftMarkdown } from './render.ts';
import { coverageMarkdown } from './render-coverage.ts';
import { timingsMarkdown, type Timings } from './timings.ts';

/**
 * Writes a run's reports into `dir`: the conformance report (Markdown, HTML, JSON), coverage, drift
 * and timings. Returns the Markdown, which CI shows too.
 */
export function writeOutputs(dir: string, report: ConformanceReport, timings: Timings): string {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const markdown = conformanceMarkdown(report);
  write('conformance.md', markdown);
  write('conformance.html', conformanceHtml(report));
  write('conformance.json', json(report));
  write('coverage.md', coverageMarkdown(report));
  write('coverage.json', json(report.coverage));
  write('drift.md', driftMarkdown(report));
  write('drift.json', json(report.drift));
  write('timings.md', timingsMarkdown(timings));
  write('timings.json', json(timings));
  return markdown;
}

/** On GitHub Actions: the report in the job summary, and an annotation at each failed rule. */
export function tellCi(report: ConformanceReport, markdown: string): void {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}\n`);
  if (process.env.GITHUB_ACTIONS === 'true') for (const a of errorAnnotations(report)) console.log(a);
}
