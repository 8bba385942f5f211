import { isFormParameter } from './form-cases.ts';
import { WHOLE_REQUEST, type CaseOutcome } from './types.ts';

/** The name of the attachment each exploration test leaves: its summary, as JSON. */
export const EXPLORE_ATTACHMENT = 'clm-explore';

/** The annotation that marks a test as the exploration's: the report counts its requests as its share. */
export const EXPLORATION_ANNOTATION = 'exploration';

interface Counts {
  run: number;
  notRun: number;
}

/** What one operation's exploration ran: counts by kind, by parameter, and why cases did not run. */
export interface ExploreAttachment {
  operation: string;
  rules: string[];
  /** Every case the contract gives the operation. */
  total: number;
  run: number;
  notRun: number;
  failed: number;
  /** Invalid values answered with a 4xx, and with a success (drift live, a failure on the mock). */
  refused: number;
  served: number;
  positive: Counts;
  negative: Counts;
  /** By parameter (`(key)`, `body.queryString`…): cases run of each kind, and cases not run. */
  parameters: Record<string, { positive: number; negative: number; notRun: number }>;
  /** Why cases did not run, with how many each reason left out. */
  reasons: Record<string, number>;
  /**
   * The grammars' productions its requests drew (answered), and those of its cases that did not
   * run, with the first reason.
   */
  productions?: { drawn: string[]; left: Record<string, string> };
}

export function summariseOutcomes(
  operation: string,
  rules: string[],
  outcomes: readonly CaseOutcome[],
): ExploreAttachment {
  const summary: ExploreAttachment = {
    operation,
    rules,
    total: outcomes.length,
    run: 0,
    notRun: 0,
    failed: 0,
    refused: 0,
    served: 0,
    positive: { run: 0, notRun: 0 },
    negative: { run: 0, notRun: 0 },
    parameters: {},
    reasons: {},
    productions: { drawn: [], left: {} },
  };
  const drawn = new Set<string>();
  const left: Record<string, string> = {};
  for (const o of outcomes) {
    for (const name of o.case.productions ?? [])
      if (o.ran) drawn.add(name);
      else left[name] ??= o.reason ?? 'not run';
    const parameter = (summary.parameters[o.case.parameter] ??= { positive: 0, negative: 0, notRun: 0 });
    if (o.ran) {
      summary.run++;
      summary[o.case.kind].run++;
      parameter[o.case.kind]++;
      if (o.failure !== undefined) summary.failed++;
      if (o.served) summary.served++;
      else if (o.case.kind === 'negative' && (o.status ?? 0) >= 400 && (o.status ?? 0) < 500)
        summary.refused++;
    } else {
      summary.notRun++;
      summary[o.case.kind].notRun++;
      parameter.notRun++;
      const reason = o.reason ?? 'not run';
      summary.reasons[reason] = (summary.reasons[reason] ?? 0) + 1;
    }
  }
  summary.productions = {
    drawn: [...drawn].sort(),
    left: Object.fromEntries(Object.entries(left).filter(([name]) => !drawn.has(name))),
  };
  return summary;
}

export interface ExploreRow {
  operation: string;
  /** Positive cases run. */
  positive: number;
  /** Negative cases run. */
  negative: number;
  /** Cases not run: the target lacks their data, the live budget left them out, or the run stopped. */
  notRun: number;
  /**
   * Invalid values refused (a 4xx), and served (a 2xx: live, drift the interface allows; on the
   * mock a failure).
   */
  refused: number;
  served: number;
  /** The parameters explored: the contract's, the body's properties, the key, the token, an unknown one. */
  parameters: number;
}

const WHOLE = new Set<string>(Object.values(WHOLE_REQUEST));

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // A body in Playwright's JSON report is base64.
    try {
      return JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
    } catch {
      return undefined;
    }
  }
}

/** The summary an attachment holds: the summary itself, its JSON, or a Playwright attachment of it. */
function summaryOf(attachment: unknown): ExploreAttachment | undefined {
  let value = typeof attachment === 'string' ? parse(attachment) : attachment;
  const wrapper = record(value);
  if (wrapper && 'body' in wrapper) {
    if (wrapper.name !== undefined && wrapper.name !== EXPLORE_ATTACHMENT) return undefined;
    const body = wrapper.body;
    value =
      typeof body === 'string'
        ? parse(body)
        : body instanceof Uint8Array
          ? parse(Buffer.from(body).toString('utf8'))
          : undefined;
  }
  const summary = record(value);
  const counts = (v: unknown) => {
    const c = record(v);
    return c && typeof c.run === 'number' && typeof c.notRun === 'number';
  };
  if (
    !summary ||
    typeof summary.operation !== 'string' ||
    !counts(summary.positive) ||
    !counts(summary.negative) ||
    typeof summary.notRun !== 'number' ||
    !record(summary.parameters)
  )
    return undefined;
  return summary as unknown as ExploreAttachment;
}

/** The summaries the attachments hold, one per operation: of repeats (retries), the one that ran the most. */
export function exploreSummaries(attachments: unknown[]): ExploreAttachment[] {
  const best = new Map<string, ExploreAttachment>();
  for (const attachment of attachments) {
    const summary = summaryOf(attachment);
    if (!summary) continue;
    const kept = best.get(summary.operation);
    const ran = (s: ExploreAttachment) => s.positive.run + s.negative.run;
    if (!kept || ran(summary) > ran(kept)) best.set(summary.operation, summary);
  }
  return [...best.values()].sort((a, b) => a.operation.localeCompare(b.operation));
}

/**
 * One row per operation from the exploration tests' attachments (anything else is passed over).
 * An operation met more than once (repeats, retries) keeps the attachment that ran the most.
 */
export function exploreSummary(attachments: unknown[]): ExploreRow[] {
  return exploreSummaries(attachments).map((s) => ({
    operation: s.operation,
    positive: s.positive.run,
    negative: s.negative.run,
    notRun: s.notRun,
    refused: s.refused ?? 0,
    served: s.served ?? 0,
    parameters: Object.keys(s.parameters).filter((p) => !WHOLE.has(p) && !isFormParameter(p)).length,
  }));
}
