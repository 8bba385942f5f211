import type { ConformanceReport } from '../report/model.ts';
import { suiteText } from '../report/render.ts';

/** The verdicts the docs may publish: those of a clean full run, or none, and why. */
export type PublishedVerdicts =
  { report: ConformanceReport; source: string } | { report?: never; why: string };

/**
 * Readers of the published spec see only what the service did on a full run with no fault switched
 * on that ran to its end: a faulted, partial or incomplete run says nothing about the service.
 */
export function publishedVerdicts(report: ConformanceReport | undefined): PublishedVerdicts {
  if (!report) return { why: 'there is no conformance report yet' };
  const { meta, run } = report;
  if (!meta || !run?.suite || !run.target)
    return { why: 'the conformance report does not say what it ran (an older suite wrote it)' };
  const faults = meta.faults.length ? meta.faults : (run.faults ?? []);
  if (faults.length > 0) return { why: `the last run had faults switched on (${faults.join(', ')})` };
  if (meta.partial.length > 0) return { why: `the last run was partial (${meta.partial.join('; ')})` };
  if (report.incomplete.length > 0)
    return { why: `the last run did not finish (${report.incomplete.join('; ')})` };
  return {
    report,
    source: `the full conformance run of ${meta.endedAt} against ${run.target}, with suite ${suiteText(run.suite)}`,
  };
}
