import { publishedVerdicts } from './published.ts';
import type { HistoryRecord } from '../report/history.ts';
import type { ConformanceReport, Verdict } from '../report/model.ts';
import { escapeHtml as escape } from '../report/html.ts';

/** One night against production as the strip shows it. */
export interface Night {
  at: string;
  verdict: string;
  rules: Record<string, Verdict>;
}

/** What production was last verified to do, and the nights before it. */
export interface Verified {
  /** When the last full clean night against production ended. */
  at: string;
  target: string;
  verdicts: Record<string, Verdict>;
  /** Up to the last 30 full clean nights against the same service, oldest first, the last one included. */
  nights: Night[];
  findings: { rules: string[]; title: string }[];
}

export type Verification = Verified | { why: string };
export const NIGHTS = 30;

const nightOf = (r: HistoryRecord): Night => ({ at: r.at, verdict: r.verdict, rules: r.rules });

/**
 * Production as the docs may show it: the last nightly's merged report, when it was a full run
 * with no fault that ran to its end (as for the index's verdicts) and its target was a live
 * service; with the history's full clean nights against that same service.
 */
export function verification(report: ConformanceReport | undefined, history: HistoryRecord[]): Verification {
  const published = publishedVerdicts(report);
  if (!published.report) return { why: published.why };
  const { meta, rows, findings } = published.report;
  if (meta.targetKind !== 'live')
    return { why: `the last full run was against ${meta.target}, not production` };
  const kept = history.filter(
    (r) =>
      r.targetKind === 'live' &&
      r.baseUrl === meta.baseUrl &&
      r.complete &&
      !r.partial &&
      r.faults.length === 0 &&
      Date.parse(r.at) < Date.parse(meta.endedAt),
  );
  const verdicts = Object.fromEntries(rows.map((row) => [row.rule.id, row.verdict]));
  const tonight: Night = { at: meta.endedAt, verdict: published.report.verdict, rules: verdicts };
  return {
    at: meta.endedAt,
    target: meta.target,
    verdicts,
    nights: [...kept.map(nightOf), tonight].slice(-NIGHTS),
    findings: findings.map(({ rules, title }) => ({ rules, title })),
  };
}

const day = (iso: string) => iso.slice(0, 10);

/** "verified against production on DATE: N of M rules pass", for the rules given. */
export function verifiedText(v: Verified, rules: readonly string[]): string {
  const decided = rules.filter((id) => v.verdicts[id] !== undefined);
  const pass = decided.filter((id) => v.verdicts[id] === 'pass').length;
  return `Verified against production on ${day(v.at)}: ${pass} of ${decided.length} rules pass`;
}

/** The night since which a rule has not passed: the first of its latest run of nights without a pass. */
export function notPassingSince(v: Verified, rule: string): { since: string; atLeast: boolean } {
  let i = v.nights.length;
  while (i > 0 && v.nights[i - 1]!.rules[rule] !== 'pass') i--;
  return { since: day(v.nights[Math.min(i, v.nights.length - 1)]!.at), atLeast: i === 0 };
}

/** A rule not passing in words: its verdict, since when, and the finding that names it. */
export function notPassingText(v: Verified, rule: string): string {
  const { since, atLeast } = notPassingSince(v, rule);
  const finding = v.findings.find((f) => f.rules.includes(rule));
  return (
    `${v.verdicts[rule] ?? 'not decided'} since ${atLeast ? 'at least ' : ''}${since}` +
    (finding ? `: ${finding.title}` : '')
  );
}

/**
 * The last nights as a strip of small bars, one a night, coloured by verdict: the whole night's,
 * or one rule's. Its text alternative counts the verdicts and names the first and last night.
 */
export function stripHtml(v: Verified, rule?: string): string {
  const verdictOf = (n: Night) => (rule ? (n.rules[rule] ?? 'not covered') : n.verdict);
  const counts = new Map<string, number>();
  for (const n of v.nights) counts.set(verdictOf(n), (counts.get(verdictOf(n)) ?? 0) + 1);
  const label =
    `${rule ?? 'The service'} over the last ${v.nights.length} night(s), ${day(v.nights[0]!.at)} to ` +
    `${day(v.nights.at(-1)!.at)}: ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}`;
  const bars = v.nights
    .map((n) => `<i class="${verdictOf(n).replace(' ', '-')}" title="${day(n.at)}: ${verdictOf(n)}"></i>`)
    .join('');
  return `<span class="strip" role="img" aria-label="${escape(label)}">${bars}</span>`;
}
