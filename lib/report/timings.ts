import type { TestCase, TestResult } from '@playwright/test/reporter';

/** The annotation a property's test carries per property: the runs fast-check made, and of how many asked. */
export const FC_RUNS_ANNOTATION = 'fc-runs';
/** The annotation the first test of a worker carries: how long its target (the mock) took to start. */
export const TARGET_START_ANNOTATION = 'target-start-ms';

/**
 * Where a run's time went: the slowest tests, each property's runs, each worker's start, the first
 * request.
 */
export interface Timings {
  wallMs: number;
  /** From the run's start to the start of the first test that sent a request. */
  firstRequestMs: number | null;
  workers: { worker: number; targetStartMs: number; firstTestMs: number }[];
  slowest: { title: string; ms: number }[];
  properties: { title: string; ms: number; runs: number[] }[];
}

interface Entry {
  title: string;
  ms: number;
  start: number;
  worker: number;
  requests: number;
  runs: number[];
  targetStartMs?: number;
}

/** Collects one entry per test as it ends, and sums them up at the end of the run. */
export class TimingsCollector {
  private readonly entries: Entry[] = [];
  private readonly begun = Date.now();

  add(test: TestCase, result: TestResult, requests: number): void {
    const annotations = result.annotations;
    const started = annotations.find((a) => a.type === TARGET_START_ANNOTATION)?.description;
    this.entries.push({
      title: test.titlePath().slice(3).join(' › '),
      ms: result.duration,
      // A result merged from a blob or built by hand may lack its start: the end of the run stands in.
      start: result.startTime?.getTime() ?? Date.now(),
      worker: result.parallelIndex,
      requests,
      runs: annotations.filter((a) => a.type === FC_RUNS_ANNOTATION).map((a) => Number(a.description)),
      ...(started ? { targetStartMs: Number(started) } : {}),
    });
  }

  timings(top = 10): Timings {
    const first = (entries: Entry[]) => Math.min(...entries.map((e) => e.start));
    const sending = this.entries.filter((e) => e.requests > 0);
    const byWorker = new Map<number, Entry[]>();
    for (const e of this.entries) byWorker.set(e.worker, [...(byWorker.get(e.worker) ?? []), e]);
    return {
      wallMs: Date.now() - this.begun,
      firstRequestMs: sending.length > 0 ? first(sending) - this.begun : null,
      workers: [...byWorker].map(([worker, entries]) => ({
        worker,
        targetStartMs: Math.max(0, ...entries.map((e) => e.targetStartMs ?? 0)),
        firstTestMs: first(entries) - this.begun,
      })),
      slowest: [...this.entries]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, top)
        .map(({ title, ms }) => ({ title, ms })),
      properties: this.entries
        .filter((e) => e.runs.length > 0)
        .sort((a, b) => b.ms - a.ms)
        .map(({ title, ms, runs }) => ({ title, ms, runs })),
    };
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The timings as Markdown: what to read first when a run grows slow. */
export function timingsMarkdown(t: Timings): string {
  const rows = (items: string[][]) => items.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  return `# Where the run's time went

- Wall time: ${seconds(t.wallMs)}
- First request: ${t.firstRequestMs === null ? 'none sent' : `${seconds(t.firstRequestMs)} after the start`}

## Workers

| Worker | Target start | First test |
| --- | --- | --- |
${rows(t.workers.map((w) => [String(w.worker), seconds(w.targetStartMs), seconds(w.firstTestMs)]))}

## Slowest tests

| Test | Time |
| --- | --- |
${rows(t.slowest.map((s) => [s.title.replaceAll('|', '\\|'), seconds(s.ms)]))}

## Properties: the runs each made

| Test | Runs | Time |
| --- | --- | --- |
${rows(t.properties.map((p) => [p.title.replaceAll('|', '\\|'), p.runs.join(', '), seconds(p.ms)]))}
`;
}
