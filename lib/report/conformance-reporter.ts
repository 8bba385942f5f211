import { join, relative } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestResult,
} from '@playwright/test/reporter';
import { OBSERVATIONS_ATTACHMENT, type Observations } from '../client/observations.ts';
import { loadConfig } from '../config.ts';
import { loadContract, loadRules } from '../contract/index.ts';
import { projectPath } from '../paths.ts';
import { LEDGER_URL_VARIABLE, remoteLedger } from '../run/ledger-server.ts';
import { EXPLORATION_ANNOTATION, EXPLORE_ATTACHMENT, explorationOf } from '../explore/index.ts';
import { addEvidence, keepEvidence, type EvidenceEntry } from '../evidence/store.ts';
import { FEED_NIGHT_ATTACHMENT, type FeedNight } from '../paging/nights.ts';
import { attributionOf, ownFailure } from './attribution.ts';
import { EXIT, exitCodeOf, exitIncompleteAtEnd } from './exit-code.ts';
import { plain, replayable, replayCommand, sharesLine } from './findings.ts';
import { appendHistory, HISTORY_FILE, recordOf } from './history.ts';
import {
  buildReport,
  FIRST_ATTEMPT_STANDS,
  outcomeOf,
  type ConformanceReport,
  type FailureRecord,
  type Outcome,
  type RunRecord,
  type TestRecord,
} from './model.ts';
import { tellCi, writeOutputs } from './outputs.ts';
import { closingText } from './render.ts';
import { contractIdentity, partialReasons, suiteCommit, suiteVersion, targetLine } from './run-meta.ts';
import { TimingsCollector } from './timings.ts';
import { declaredRules } from '../claims.ts';

/** The first lines of a failure: enough to say what broke, short enough for every report. */
const firstLines = (text: string) => plain(text).split('\n').slice(0, 12).join('\n').slice(0, 2_000);

/**
 * Turns the conformance tests' results into the rule-by-rule report (failures first, grouped into
 * findings), coverage, drift and the run's history, and ends the output with one line of counts.
 * A partial run (a filter, one shard) writes beside the full run's reports, never over them.
 */
export default class ConformanceReporter implements Reporter {
  private readonly records = new Map<string, TestRecord>();
  private readonly outcomes = new Map<string, Outcome>();
  private targets = new Set<string>();
  /** The fast-check seeds the tests used, from their annotations: right even when shards are merged. */
  private readonly seeds = new Set<number>();
  private readonly outputDir: string;
  private readonly startedAt = new Date().toISOString();
  private partial: string[] = [];
  private total = 0;
  private baseUrl = '';
  /** The base URLs the tests' requests went to (one per worker against the bundled mock). */
  private readonly baseUrls = new Set<string>();
  private replayMock: string | undefined;
  private faults = new Set<string>();
  /** The exploration's summaries, one per operation's test. */
  private readonly explored: unknown[] = [];
  /** Requests of the tests marked as the exploration's (an `exploration` annotation). */
  private explorationRequests = 0;
  /** Where tonight's feed walk stopped, for the next night (the history keeps it). */
  private feed: FeedNight | undefined;
  private readonly timings = new TimingsCollector();
  /** The run's response bodies, scrubbed by the workers, bounded as the store is. */
  private readonly evidence: EvidenceEntry[] = [];

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = options.outputDir ?? 'reports';
  }

  onBegin(config: FullConfig, suite: Suite): void {
    for (const project of suite.suites) if (project.title !== 'self') this.targets.add(project.title);
    this.partial = partialReasons(config);
    this.total = suite.allTests().filter((t) => t.parent.project()?.name !== 'self').length;
    this.baseUrl = configuredBaseUrl();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const annotations = [...result.annotations, ...test.annotations];
    // A retry of a test no outage stopped is no run of it: its first attempt stands.
    if (result.annotations.some((a) => a.type === FIRST_ATTEMPT_STANDS)) return;
    const skip = annotations.find((a) => a.type === 'skip')?.description;
    const outcome = outcomeOf(result.status, skip);
    this.outcomes.set(test.id, outcome);
    const project = test.parent.project()?.name;
    if (!project || project === 'self') return;
    const attachment = result.attachments.find((a) => a.name === OBSERVATIONS_ATTACHMENT);
    const observations = attachment?.body
      ? (JSON.parse(attachment.body.toString('utf8')) as Observations)
      : undefined;
    this.timings.add(test, result, observations?.requests ?? 0);
    const rules = [
      ...declaredRules(...test.tags),
      ...annotations.filter((a) => a.type === 'rule').map((a) => a.description),
    ].filter((id): id is string => !!id);
    this.explored.push(...result.attachments.filter((a) => a.name === EXPLORE_ATTACHMENT));
    if (annotations.some((a) => a.type === EXPLORATION_ANNOTATION))
      this.explorationRequests += observations?.requests ?? 0;
    const night = result.attachments.find((a) => a.name === FEED_NIGHT_ATTACHMENT)?.body;
    if (night) this.feed = JSON.parse(night.toString('utf8')) as FeedNight;
    const seed = annotations.find((a) => a.type === 'fc-seed')?.description;
    if (seed) this.seeds.add(Number(seed));
    const replay = observations?.replay;
    if (replay?.mockCommand && !replay.faults.some((f) => !this.faults.has(f)))
      this.replayMock ??= replay.mockCommand;
    for (const fault of replay?.faults ?? []) this.faults.add(fault);
    if (observations?.baseUrl) this.baseUrls.add(observations.baseUrl);
    if (observations?.evidence?.length) addEvidence(this.evidence, observations.evidence);
    const own = [...new Set(rules)];
    // A test run again at the end keeps the outages its first attempt met: the report names them.
    const earlier = this.records.get(test.id)?.observations?.outages ?? [];
    if (observations && earlier.length) observations.outages = [...earlier, ...(observations.outages ?? [])];
    this.records.set(test.id, {
      id: test.id,
      title: test.titlePath().slice(3).join(' › '),
      file: test.location.file,
      rules: own,
      outcome,
      skipReason: skip,
      observations,
      ...(outcome === 'failed'
        ? {
            failure: this.failureOf(test, result, project, observations, seed, annotations),
            attribution: attributionOf(result.annotations) ?? ownFailure(own),
          }
        : {}),
    });
  }

  /** Why a test failed, what it sent last (as a user can send it again), and how to replay it. */
  private failureOf(
    test: TestCase,
    result: TestResult,
    project: string,
    observations: Observations | undefined,
    seed: string | undefined,
    annotations: { type: string; description?: string }[],
  ): FailureRecord {
    const error = result.errors[0] ?? result.error;
    const text = error?.message ?? error?.value ?? 'failed';
    // A failed property's message is fast-check's frame; what broke is in its cause.
    const cause = error?.cause?.message;
    const property = /^(\w*Error: )?Property failed/.test(plain(text));
    const last = observations?.exchanges.at(-1);
    const location = `${relative(projectPath(''), test.location.file)}:${test.location.line}`;
    const failedCheck = observations?.findings.at(-1)?.check;
    return {
      message: firstLines(property && cause ? `${cause}\n${plain(text).split('\n')[0]!}` : text),
      ...(failedCheck ? { check: failedCheck } : {}),
      ...(observations?.calls.length ? { operation: observations.calls.at(-1)!.operation } : {}),
      ...(last ? { exchange: replayable(last, observations?.replay?.origins ?? {}) } : {}),
      replay: replayCommand({
        location,
        project,
        faults: observations?.replay?.faults ?? [],
        seed: annotations.some((a) => a.type === 'fc-seed') ? seed : undefined,
        path: annotations.find((a) => a.type === 'fc-path')?.description,
        replayPath: annotations.find((a) => a.type === 'fc-replay-path')?.description,
        ...(sharesLine(test, test.parent.allTests()) ? { title: test.title } : {}),
      }),
      location,
    };
  }

  async onEnd(result: FullResult): Promise<void> {
    const all = [...this.outcomes.values()];
    const count = (outcome: Outcome) => all.filter((o) => o === outcome).length;
    const skipped = count('skipped') + count('not run');
    const blocked = [...this.records.values()].filter((r) => r.attribution?.blockedBy.length).length;
    const stopped = blocked ? ` (${blocked} of them blocked by another rule's failure)` : '';
    const line = `Tests: ${count('passed')} passed, ${count('failed')} failed${stopped}, ${skipped} skipped`;
    const report = this.records.size > 0 ? await this.writeReports(result) : undefined;
    console.log(line);
    // Playwright exits 0 when no test failed: a run that left rules undecided must not look green.
    const noFailure = result.status === 'passed' || (result.status === 'timedout' && count('failed') === 0);
    if (report && noFailure && exitCodeOf(report) === EXIT.incomplete) {
      console.log(`Exit code ${EXIT.incomplete}: the run is incomplete.`);
      exitIncompleteAtEnd();
    }
  }

  private async writeReports(result: FullResult): Promise<ConformanceReport> {
    const records = [...this.records.values()];
    const contract = await loadContract();
    const targetKind = this.targets.has('live') ? 'live' : 'mock';
    const report = buildReport(records, loadRules(), contract, {
      target: [...this.targets].join(', ') || 'unknown',
      seed: this.seeds.size > 0 ? String(Math.min(...this.seeds)) : undefined,
      run: await ledgerRecord(),
      interrupted:
        result.status === 'timedout'
          ? 'the run was stopped by its global timeout'
          : result.status === 'interrupted'
            ? 'the run was interrupted'
            : undefined,
      ...explorationOf(this.explored),
      explorationRequests: this.explorationRequests,
      meta: {
        targetKind,
        baseUrl: this.usedBaseUrl(targetKind),
        target: targetLine(
          targetKind,
          this.baseUrl || [...this.baseUrls].sort().join(', '),
          this.baseUrls.size,
        ),
        suiteVersion: suiteVersion(),
        suiteCommit: suiteCommit(),
        contract: contractIdentity(contract),
        faults: [...this.faults],
        seed: this.seeds.size > 0 ? String(Math.min(...this.seeds)) : undefined,
        startedAt: this.startedAt,
        endedAt: new Date().toISOString(),
        partial: this.partial,
        ...(this.replayMock ? { replayMock: this.replayMock } : {}),
        tests: {
          run: records.filter((r) => ['passed', 'failed'].includes(r.outcome)).length,
          total: this.total,
        },
      },
    });
    // A partial run goes beside the full run's reports, so it never silently replaces them.
    const dir = this.partial.length > 0 ? join(this.outputDir, 'partial') : this.outputDir;
    const markdown = writeOutputs(dir, report, this.timings.timings());
    // A part of the suite that walked the feed is kept too: the next night follows its link.
    if (this.partial.length === 0 || this.feed)
      appendHistory(join(this.outputDir, HISTORY_FILE), recordOf(report, this.feed));
    tellCi(report, markdown);
    const store = evidenceStore(this.outputDir);
    if (store && this.evidence.length > 0) keepEvidence(store, this.evidence);

    const kept = this.partial.length
      ? `: a partial run (${this.partial.join('; ')}); ` +
        `the full run's reports in ${this.outputDir}/ are left as they were`
      : '';
    console.log(
      `${closingText(report)}\n` +
        `Reports in ${dir}/ (conformance.html, coverage.md, drift.md, timings.md)${kept}.`,
    );
    return report;
  }

  /** The base URLs the run's requests went to; else the configured service's. */
  private usedBaseUrl(targetKind: string): string {
    const used = [...this.baseUrls].sort().join(', ') || this.baseUrl;
    if (targetKind !== 'mock') return used;
    return `${used ? `${used} ` : ''}(the bundled mock, one per worker)`;
  }

  printsToStdio(): boolean {
    return true;
  }
}

/**
 * The live service's base URL, through the one loader; none where it has none (a merge of shards
 * elsewhere).
 */
function configuredBaseUrl(): string {
  try {
    const config = loadConfig();
    return config.target === 'live' ? (config.baseUrl ?? '') : '';
  } catch {
    return '';
  }
}

/** Where the run's evidence goes: as configured, else beside the reports; none when switched off. */
function evidenceStore(outputDir: string): string | undefined {
  try {
    const config = loadConfig();
    return (
      config.evidenceDir ?? (process.env.CLM_EVIDENCE_DIR === 'off' ? undefined : join(outputDir, 'evidence'))
    );
  } catch {
    return join(outputDir, 'evidence');
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
