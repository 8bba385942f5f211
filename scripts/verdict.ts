import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, usageError } from '../lib/cli.ts';
import { ConfigError, loadConfig } from '../lib/config.ts';
import { EXIT, exitCodeOf } from '../lib/report/exit-code.ts';
import { unfinished, type ConformanceReport } from '../lib/report/model.ts';

const USAGE = `Usage: npm run conformance:verdict -- [REPORT]

Reads the verdict of a conformance report (default <reports>/conformance.json; CLM_REPORTS_DIR
sets <reports>), says it with its reasons, and exits with the code of the run it reports, so a job
that merged shards tells a green run from one that left rules undecided. Under GitHub Actions it
also writes the verdict and its reasons to the job summary (GITHUB_STEP_SUMMARY).

  -h, --help  this text

Exit code: 0 pass; 1 fail (a rule failed); 3 incomplete (the run stopped: budget, deadline, a wait
too long, no answer; or tests were not run); 2 on a report that cannot be read. A part of the
suite (a filter, a shard, files named) that ran all it selected is not incomplete here: 0.`;

type Verdict = Pick<ConformanceReport, 'verdict' | 'incomplete' | 'meta' | 'findings'>;

const { positionals } = commandLine(USAGE, {}, { positionals: 1 });
const file = positionals[0] ?? join(reportsDir(), 'conformance.json');

function reportsDir(): string {
  try {
    return loadConfig().reportsDir;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return usageError(USAGE, `Configuration error: ${error.message}`);
  }
}

/** The fields the verdict needs; a report of an older suite has no meta and reads as a whole run. */
function read(path: string): Verdict | string {
  let value: Partial<Verdict>;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Verdict>;
  } catch (error) {
    return `${path}: ${(error as Error).message}`;
  }
  if (!['pass', 'fail', 'incomplete'].includes(String(value.verdict)) || !Array.isArray(value.incomplete))
    return `${path}: not a conformance report (no verdict)`;
  return {
    verdict: value.verdict!,
    incomplete: value.incomplete,
    findings: value.findings ?? [],
    meta: { partial: [], ...value.meta } as ConformanceReport['meta'],
  };
}

const summary = (text: string) => {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `\n${text}\n`);
};

const report = read(file);
if (typeof report === 'string') {
  console.error(`No verdict: ${report}`);
  summary(`**Conformance verdict: none.** No report could be read (${report}): the run did not end.`);
  process.exit(EXIT.config);
}
const code = exitCodeOf(report);
const verdict = report.verdict.toUpperCase();
const text =
  code === EXIT.incomplete
    ? `**Conformance verdict: ${verdict}, not passed.** ${unfinished(report).join('; ')}. ` +
      'The rules left undecided are listed as not run in the report.'
    : code === EXIT.fail
      ? `**Conformance verdict: ${verdict}.** ${report.findings.length} finding(s)` +
        `${report.findings[0] ? `, the first: ${report.findings[0].title}` : ''}.`
      : report.verdict === 'incomplete'
        ? `**Conformance verdict: ${verdict}** (${report.incomplete.join('; ')}), ` +
          'and every test it selected ran.'
        : `**Conformance verdict: ${verdict}.** ` +
          'Every rule the run set out to check was decided; none failed.';
console.log(`${text.replaceAll('**', '')} Exit code ${code}.`);
summary(text);
process.exitCode = code;
