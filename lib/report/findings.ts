import { createHash } from 'node:crypto';
import { EVERY_UUID } from '../uuid.ts';

/** Colour codes Playwright puts in error messages. */
// eslint-disable-next-line no-control-regex -- the escape character is what is matched
const ANSI = /\u001b\[[0-9;]*m/g;

/** One request and its answer, redacted and truncated, as a finding shows it. */
export interface ExchangeRecord {
  method: string;
  url: string;
  status: number;
  curl: string;
  body: string;
}

/** A failed test as the findings see it: why it failed, what it sent last, how to replay it. */
export interface FailureRecord {
  /** The first lines of the error, without colour codes. */
  message: string;
  /** The automatic check that failed, when one did. */
  check?: string;
  /** The operation of the last request. */
  operation?: string;
  exchange?: ExchangeRecord;
  /** The command that replays the test: faults, seed and path set. */
  replay: string;
  /** Where the test is, `file:line`. */
  location: string;
}

/** One defect: the failures that share a cause (operation, check, message shape), and what they touch. */
export interface Finding {
  id: string;
  title: string;
  rules: string[];
  tests: string[];
  expected?: string;
  received?: string;
  operation?: string;
  exchange?: ExchangeRecord;
  replay: string;
  location: string;
  /** Where the test's entry in Playwright's HTML report is. */
  reportLink: string;
}

/** What the findings read of a test's record. */
interface TestOutcome {
  id: string;
  title: string;
  rules: string[];
  outcome: string;
  failure?: FailureRecord;
  observations?: { findings: { rules: string[] }[] };
}

export const plain = (text: string) => text.replace(ANSI, '');

/**
 * A message's shape: what two failures of one defect share once the values that differ between
 * requests (identifiers, numbers, URLs, quoted text) are blanked out.
 */
export function messageShape(message: string): string {
  return plain(message)
    .split('\n')
    .slice(0, 3)
    .join(' ')
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(EVERY_UUID, '<id>')
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '"…"')
    .replace(/\d+(\.\d+)?/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The line of an error message that says what went wrong, and its Expected/Received lines. */
export function describe(message: string): { title: string; expected?: string; received?: string } {
  const lines = plain(message)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const value = (label: string) =>
    lines
      .find((l) => l.startsWith(`${label}:`))
      ?.slice(label.length + 1)
      .trim();
  const title = (lines[0] ?? 'failed').replace(/^\w*Error:\s*/, '').slice(0, 200);
  return { title, expected: value('Expected'), received: value('Received') };
}

/** The part of a check's failure line that names it: `Title [RULE-01, …]`. */
const CHECK_LINE = /^(?:\w*Error: )?(.+?) \[([A-Z]+-\d{2}(?:, [A-Z]+-\d{2})*|contract)\]$/m;

/** What a failed test shares with others of the same defect. */
function keyOf(failure: FailureRecord): string {
  const check = failure.check ?? CHECK_LINE.exec(plain(failure.message))?.[1];
  return [failure.operation ?? '-', check ?? 'assertion', check ? '' : messageShape(failure.message)].join(
    ' | ',
  );
}

/** A link into Playwright's HTML report, written beside the conformance report. */
export const reportLink = (testId: string) => `html/index.html#?testId=${encodeURIComponent(testId)}`;

/**
 * The run's failures as findings, one per defect: failures that share the operation, the check (or
 * the shape of the message) are one finding, which lists every rule and test it touches. The
 * finding that touches most tests comes first.
 */
export function findingsOf(records: TestOutcome[]): Finding[] {
  const groups = new Map<string, TestOutcome[]>();
  for (const record of records) {
    if (record.outcome !== 'failed' || !record.failure) continue;
    const key = keyOf(record.failure);
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const findings = [...groups].map(([key, group]): Finding => {
    const first = group[0]!;
    const failure = first.failure!;
    const check = CHECK_LINE.exec(plain(failure.message));
    const described = describe(check ? plain(failure.message).slice(check.index) : failure.message);
    const rules = new Set(group.flatMap((r) => r.rules));
    for (const r of group)
      for (const f of r.observations?.findings ?? []) f.rules.forEach((id) => rules.add(id));
    return {
      id: createHash('sha1').update(key).digest('hex').slice(0, 8),
      title: failure.operation ? `${described.title} (${failure.operation})` : described.title,
      rules: [...rules].sort(),
      tests: group.map((r) => r.title),
      ...(described.expected ? { expected: described.expected } : {}),
      ...(described.received ? { received: described.received } : {}),
      ...(failure.operation ? { operation: failure.operation } : {}),
      ...(failure.exchange ? { exchange: failure.exchange } : {}),
      replay: failure.replay,
      location: failure.location,
      reportLink: reportLink(first.id),
    };
  });
  return findings.sort((a, b) => b.tests.length - a.tests.length || a.title.localeCompare(b.title));
}

/** An exchange as a replay shows it: the run's own origins swapped for those a user can reach. */
export function replayable(exchange: ExchangeRecord, origins: Record<string, string>): ExchangeRecord {
  const swap = (text: string) =>
    Object.entries(origins).reduce((out, [from, to]) => out.replaceAll(from, to), text);
  return {
    ...exchange,
    url: swap(exchange.url),
    curl: swap(exchange.curl),
    body: exchange.body.slice(0, 2_000),
  };
}

/** The command that replays one test as it ran: its target, faults, seed, property path and commands. */
export function replayCommand(test: {
  location: string;
  project: string;
  faults: string[];
  seed?: string;
  path?: string;
  replayPath?: string;
}): string {
  const vars = [
    test.project === 'live' ? 'CLM_TARGET=live' : '',
    test.faults.length > 0 ? `MOCK_FAULTS=${test.faults.join(',')}` : '',
    test.seed ? `FC_SEED=${test.seed}` : '',
    test.path ? `FC_PATH=${test.path}` : '',
    test.replayPath ? `FC_REPLAY_PATH=${test.replayPath}` : '',
  ].filter(Boolean);
  return [...vars, `npx playwright test ${test.location} --project=${test.project}`].join(' ');
}
