import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestResult,
} from '@playwright/test/reporter';
import { OBSERVATIONS_ATTACHMENT, type Observations } from '../client/observations.ts';
import { loadContract, loadRules } from '../contract/index.ts';
import { LEDGER_URL_VARIABLE, remoteLedger } from '../run/ledger-server.ts';
import { buildReport, type Outcome, type RunRecord, type TestRecord } from './model.ts';
import { conformanceHtml, conformanceMarkdown, counts, coverageMarkdown, driftMarkdown } from './render.ts';

const RULE_TAG = /^@([A-Z]+-\d{2})$/;

/**
 * Turns the conformance tests' results into the rule-by-rule report, coverage and drift, and ends
 * the run's output with one plain line of counts.
 */
export default class ConformanceReporter implements Reporter {
  private readonly records = new Map<string, TestRecord>();
  private readonly outcomes = new Map<string, Outcome>();
  private targets = new Set<string>();
  /** The fast-check seeds the tests used, from their annotations: right even when shards are merged. */
  private readonly seeds = new Set<number>();
  private readonly outputDir: string;

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    for (const project of suite.suites) if (project.title !== 'self') this.targets.add(project.title);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const annotations = [...result.annotations, ...test.annotations];
    const skip = annotations.find((a) => a.type === 'skip')?.description;
    const outcome: Outcome =
      result.status === 'passed'
        ? 'passed'
        : result.status === 'skipped'
          ? skip?.startsWith('not run:')
            ? 'not run'
            : 'skipped'
          : 'failed';
    this.outcomes.set(test.id, outcome);
    const project = test.parent.project()?.name;
    if (!project || project === 'self') return;
    const attachment = result.attachments.find((a) => a.name === OBSERVATIONS_ATTACHMENT);
    const observations = attachment?.body
      ? (JSON.parse(attachment.body.toString('utf8')) as Omit<Observations, 'exchanges'>)
      : undefined;
    const rules = [
      ...test.tags.map((tag) => RULE_TAG.exec(tag)?.[1]),
      ...[...test.annotations, ...result.annotations]
        .filter((a) => a.type === 'rule')
        .map((a) => a.description),
    ].filter((id): id is string => !!id);
    for (const a of annotations)
      if (a.type === 'fc-seed' && a.description) this.seeds.add(Number(a.description));
    this.records.set(test.id, {
      title: test.titlePath().slice(3).join(' › '),
      file: test.location.file,
      rules: [...new Set(rules)],
      outcome,
      skipReason: skip,
      observations,
    });
  }

  async onEnd(result: FullResult): Promise<void> {
    const all = [...this.outcomes.values()];
    const count = (outcome: Outcome) => all.filter((o) => o === outcome).length;
    const line = `Tests: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped') + count('not run')} skipped`;
    if (this.records.size > 0) {
      const report = buildReport([...this.records.values()], loadRules(), await loadContract(), {
        target: [...this.targets].join(', ') || 'unknown',
        seed: this.seeds.size > 0 ? String(Math.min(...this.seeds)) : undefined,
        run: await ledgerRecord(),
        interrupted:
          result.status === 'timedout'
            ? 'the run was stopped by its global timeout'
            : result.status === 'interrupted'
              ? 'the run was interrupted'
              : undefined,
      });
      mkdirSync(this.outputDir, { recursive: true });
      const write = (name: string, text: string) => writeFileSync(join(this.outputDir, name), text);
      write('conformance.md', conformanceMarkdown(report));
      write('conformance.html', conformanceHtml(report));
      write('conformance.json', `${JSON.stringify(report, null, 2)}\n`);
      write('coverage.md', coverageMarkdown(report));
      write('coverage.json', `${JSON.stringify(report.coverage, null, 2)}\n`);
      write('drift.md', driftMarkdown(report));
      write('drift.json', `${JSON.stringify(report.drift, null, 2)}\n`);
      const c = counts(report);
      const seenPairs = report.coverage.documented.filter((d) => d.seen).length;
      console.log(
        `\nVerdict: ${report.verdict.toUpperCase()}${report.incomplete.length ? ` (${report.incomplete.join('; ')})` : ''}.` +
          `\nConformance (${report.target}): ${c.pass} rules pass, ${c.fail} fail, ${c['not run']} not run, ${c.skipped} skipped, ${c['not covered']} not covered; ` +
          `coverage ${seenPairs}/${report.coverage.documented.length}; ${report.drift.length} drift fields; ${report.requests} requests. ` +
          `fast-check seed ${report.seed ?? '-'}. Reports in ${this.outputDir}/ (conformance.html, coverage.md, drift.md, html/).`,
      );
    }
    console.log(line);
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** What the run's ledger counted, when the run had one (a bounded run: live, or a budget set). */
async function ledgerRecord(): Promise<RunRecord | undefined> {
  const url = process.env[LEDGER_URL_VARIABLE];
  if (!url) return undefined;
  try {
    const state = await remoteLedger(url).state();
    return {
      requests: state.requests,
      budget: Number.isFinite(state.budget) ? state.budget : null,
      perSecond: Number.isFinite(state.perSecond) ? state.perSecond : null,
      stopped: state.stopped,
      transportFailures: state.transportFailures,
    };
  } catch {
    return undefined;
  }
}
