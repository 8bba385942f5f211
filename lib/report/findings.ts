import { createHash } from 'node:crypto';
import { EVERY_UUID } from '../uuid.ts';
import type { Attribution } from './attribution.ts';

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

/**
 * One defect: one broken rule at one place (a check's failure at a schema keyword, say), or one
 * test assertion's failures of one shape; the tests it failed, and of those the ones it blocked.
 */
export interface Finding {
  id: string;
  title: string;
  rules: string[];
  tests: string[];
  /** The tests it stopped whose own rules are others: their rules are not decided. */
  blocked: string[];
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
  attribution?: Attribution;
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

/** The failure's text from the line of the first check it names (by the check's title), else whole. */
function fromCheck(message: string, record: TestOutcome): string {
  const text = plain(message);
  const at = (record.attribution?.checks ?? []).map((c) => text.indexOf(c.title)).filter((i) => i >= 0);
  return at.length ? text.slice(text.lastIndexOf('\n', Math.min(...at)) + 1) : message;
}

/** One cause of a failed test: a check broken at a place, owned by one rule; or its own assertion. */
interface Cause {
  key: string;
  rules: string[];
  /** The check's words, `NOTIF-06: notifications has 201 items, …`; none for an assertion. */
  title?: string;
}

/** The causes of a failed test: each rule and place of the checks it failed on, else its assertion. */
function causesOf(record: TestOutcome): Cause[] {
  const failure = record.failure!;
  const operation = failure.operation ?? '-';
  const checks = record.attribution?.checks ?? [];
  if (checks.length === 0)
    return [
      { key: [operation, 'assertion', messageShape(failure.message)].join(' | '), rules: record.rules },
    ];
  return checks.flatMap((c) =>
    (c.rules.length ? c.rules : record.rules).map((rule) => ({
      key: [rule, operation, c.check, c.place ?? messageShape(c.title)].join(' | '),
      rules: [rule],
      title: `${rule}: ${c.title}${c.place ? '' : ` (${operation})`}`,
    })),
  );
}

/** A link into Playwright's HTML report, written beside the conformance report. */
export const reportLink = (testId: string) => `html/index.html#?testId=${encodeURIComponent(testId)}`;

/**
 * The run's failures as findings: one per broken rule and place (a check's failures that share the
 * rule, the operation, the check and the place), or per test assertion of one shape on one
 * operation. Each lists the tests it failed and those it blocked. The finding that touches most
 * tests comes first.
 */
export function findingsOf(records: TestOutcome[]): Finding[] {
  const groups = new Map<string, { cause: Cause; records: TestOutcome[] }>();
  for (const record of records) {
    if (record.outcome !== 'failed' || !record.failure) continue;
    for (const cause of causesOf(record)) {
      const group = groups.get(cause.key) ?? { cause, records: [] };
      if (!group.records.includes(record)) group.records.push(record);
      groups.set(cause.key, group);
    }
  }
  const findings = [...groups].map(([key, { cause, records: group }]): Finding => {
    const first = group[0]!;
    const failure = first.failure!;
    const described = describe(fromCheck(failure.message, first));
    const own = failure.operation ? `${described.title} (${failure.operation})` : described.title;
    return {
      id: createHash('sha1').update(key).digest('hex').slice(0, 8),
      title: cause.title ?? own,
      rules: [...cause.rules].sort(),
      tests: group.map((r) => r.title),
      blocked: group.filter((r) => !cause.rules.some((id) => r.rules.includes(id))).map((r) => r.title),
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

type Located = { location: { file: string; line: number } };
/** Whether another of these tests was declared on this test's line (a loop): its replay then names it. */
export const sharesLine = (test: Located, tests: Located[]) =>
  tests.some(
    (t) => t !== test && t.location.file === test.location.file && t.location.line === test.location.line,
  );

/**
 * A test's title as a `--grep` that matches it alone (Playwright matches the describe titles, the
 * test's and its tags, joined by spaces), quoted for a POSIX shell.
 */
const grepFor = (title: string) => {
  const pattern = `(^| )${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( @|$)`;
  return ` -g '${pattern.replaceAll("'", "'\\''")}'`;
};

/**
 * The command that replays one test as it ran: its target, faults, seed, property path and commands.
 * `title` is given where other tests share the test's line (a loop): the line alone would run them all.
 */
export function replayCommand(test: {
  location: string;
  project: string;
  faults: string[];
  seed?: string;
  path?: string;
  replayPath?: string;
  title?: string;
}): string {
  const vars = [
    test.project === 'live' ? 'CLM_TARGET=live' : '',
    test.faults.length > 0 ? `MOCK_FAULTS=${test.faults.join(',')}` : '',
    test.seed ? `FC_SEED=${test.seed}` : '',
    test.path ? `FC_PATH=${test.path}` : '',
    test.replayPath ? `FC_REPLAY_PATH=${test.replayPath}` : '',
  ].filter(Boolean);
  const grep = test.title ? grepFor(test.title) : '';
  return [...vars, `npx playwright test ${test.location} --project=${test.project}${grep}`].join(' ');
}
