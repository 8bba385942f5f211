import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, usageError } from '../lib/cli.ts';
import { ConfigError, loadConfig } from '../lib/config.ts';
import { EXIT } from '../lib/report/exit-code.ts';
import {
  DEFAULT_WINDOW,
  HISTORY_FILE,
  readHistory,
  recordOf,
  regressions,
  type HistoryRecord,
  type Regressions,
  type RuleTrend,
} from '../lib/report/history.ts';
import type { ConformanceReport } from '../lib/report/model.ts';

const USAGE = `Usage: npm run conformance:regressions -- [--history FILE] [--window N]
       npm run conformance:regressions -- <previous conformance.json> <current conformance.json>

Compares the newest run of the history with the runs before it, of the same target (kind, base
URL, mock faults). Exits 1 when a rule regressed; else 3 when a rule did not run in the newest
(the code of an incomplete run); else 0; 2 on bad arguments.

  regressed  passed in each of the N runs before the newest, fails in the newest
  not run    passed in each of the N runs before the newest, undecided in the newest (not run,
             skipped or not covered: the run stopped short, or lost the data the rule needs)
  blocked    passed in each of the N runs before the newest, blocked in the newest by another
             rule's failure in it (listed; the blocker's regression is what fails the gate)
  flaky      flipped between pass and fail at least twice in the last N+1 runs (listed, never fails)
  fixed      failed in the run before, passes in the newest

  --history FILE  the run history (default <reports>/${HISTORY_FILE}; CLM_REPORTS_DIR sets <reports>)
  --window N      how many runs before the newest a rule must have passed in (default ${DEFAULT_WINDOW})
  -h, --help      this text

With two reports named, compares the current with the previous alone; a missing previous report
makes every failing rule count.`;

function fail(message: string): never {
  return usageError(USAGE, message);
}

const { values: args, positionals } = commandLine(
  USAGE,
  { history: { type: 'string' }, window: { type: 'string' } },
  { positionals: 2 },
);
const window = args.window === undefined ? DEFAULT_WINDOW : Number(args.window);
if (!Number.isInteger(window) || window < 1)
  fail(`--window "${args.window}" is not a whole number of at least 1`);
if (positionals.length !== 0 && positionals.length !== 2) fail('Name two reports, or none.');
if (positionals.length === 2 && (args.history !== undefined || args.window !== undefined))
  fail('Two reports are compared alone: --history and --window do not apply.');

const result = positionals.length === 2 ? compareReports(positionals[0]!, positionals[1]!) : compareHistory();
if (result) {
  const line = (kind: string, t: RuleTrend, note: string) =>
    console.log(
      `  ${kind.padEnd(9)} ${t.rule} (${note})${t.findings.length ? `: ${t.findings.join('; ')}` : ''}`,
    );
  for (const t of result.regressed) line('regressed', t, `was ${t.verdicts.at(-2)}`);
  for (const t of result.notRun) line('not run', t, `was ${t.verdicts.at(-2)}, now ${t.verdicts.at(-1)}`);
  const blockers = (rule: string) => result.newest?.blockedBy?.[rule]?.join(', ') ?? '';
  for (const t of result.blocked)
    line('blocked', t, `was ${t.verdicts.at(-2)}, blocked by ${blockers(t.rule)}`);
  for (const t of result.flaky) line('flaky', t, t.verdicts.join(', '));
  for (const t of result.fixed) line('fixed', t, `was ${t.verdicts.at(-2)}`);
  console.log(
    (result.regressed.length ? `${result.regressed.length} rule(s) regressed.` : 'No rule regressed.') +
      (result.notRun.length
        ? ` ${result.notRun.length} rule(s) that passed before did not run in the newest run.`
        : ''),
  );
  process.exitCode = result.regressed.length ? EXIT.fail : result.notRun.length ? EXIT.incomplete : EXIT.pass;
}

function compareHistory(): Regressions | undefined {
  let file = args.history;
  if (file === undefined) {
    try {
      file = join(loadConfig().reportsDir, HISTORY_FILE);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      fail(`Configuration error: ${error.message}`);
    }
  }
  const history = readHistory(file);
  if (history.malformed > 0) console.warn(`${file}: ${history.malformed} malformed line(s) skipped.`);
  const gate = regressions(history, { window });
  const newest = gate.newest;
  if (!newest || gate.compared.length === 0) {
    console.log(
      newest
        ? `One run of ${newest.targetKind} ${newest.target ?? newest.baseUrl}` +
            `${newest.faults.length ? ` with faults ${newest.faults.join(', ')}` : ''}` +
            ` in ${file}: nothing to compare with yet.`
        : `No runs in ${file} yet: nothing to compare.`,
    );
    return undefined;
  }
  console.log(
    `The run of ${newest.at} (${newest.verdict}, ${newest.targetKind} ${newest.target ?? newest.baseUrl}) compared with ` +
      `${gate.compared.length} run(s) before it, from ${gate.compared[0]!.at}.`,
  );
  return gate;
}

/** The older form: two conformance reports, the current compared with the previous alone. */
function compareReports(previousFile: string, currentFile: string): Regressions {
  const current = asRecord(currentFile);
  if (!existsSync(previousFile)) {
    console.log('No previous report: every failing rule counts.');
    const failing = Object.entries(current.rules).filter(([, v]) => v === 'fail');
    const trends = failing.map(([rule]) => ({
      rule,
      verdicts: ['absent' as const, 'fail' as const],
      findings: current.findings.filter((f) => f.rules.includes(rule)).map((f) => f.title),
    }));
    const none = { notRun: [], blocked: [], flaky: [], fixed: [] };
    return { newest: current, compared: [], window: 1, regressed: trends, ...none };
  }
  // The two reports are compared whatever their targets: naming them says they compare.
  const previous = {
    ...asRecord(previousFile),
    targetKind: current.targetKind,
    baseUrl: current.baseUrl,
    faults: current.faults,
  };
  console.log(`Compared with the report of ${previous.at}.`);
  return regressions([previous, current], { window: 1 });
}

/** A report written before reports carried their meta reads as one of an unnamed target. */
function asRecord(file: string): HistoryRecord {
  const report = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConformanceReport> &
    Pick<
      ConformanceReport,
      'rows' | 'verdict' | 'drift' | 'requests' | 'incomplete' | 'generatedAt' | 'target'
    >;
  return recordOf({
    ...(report as ConformanceReport),
    meta: report.meta ?? {
      targetKind: 'live',
      baseUrl: report.target,
      target: report.target,
      suiteVersion: '',
      suiteCommit: null,
      contract: { version: '', hash: '' },
      faults: [],
      seed: report.seed,
      startedAt: report.generatedAt,
      endedAt: report.generatedAt,
      partial: [],
      tests: { run: 0, total: 0 },
    },
    findings: report.findings ?? [],
    latency: report.latency ?? [],
  });
}
