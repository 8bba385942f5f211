import { isDeepStrictEqual } from 'node:util';
import { allowance } from './allowances.ts';

/**
 * The questions the interface leaves open, each answered once by this project: what a target that
 * keeps the project's decisions (`promises.strict`: the mock) must answer, and what a live service
 * may answer instead, with the drift noted when it does. The conformance tests read their answers
 * here (the `decided` fixture); no test narrows a check to the mock or widens it for a live service
 * by itself. `allowances.ts` is the other table: the real service's documented behaviours and bounds.
 */

/** An answer as data: what a decision or a live service's other answer admits. */
export type Answer =
  | { statuses: readonly number[] }
  | { below: number }
  | { from: number; to: number }
  | { matches: RegExp }
  | { oneOf: readonly string[] }
  | { equals: unknown }
  /** The same as the test asked for (`asked`): the origin requested, GET's headers. */
  | { asked: true }
  /** The test's own finding holds. */
  | { holds: true }
  | { anything: true };

export interface Decision {
  /** The rules a failure is theirs: those of them the test declares, where it declares some. */
  rules: readonly string[];
  question: string;
  /** What the project decided: what a target that keeps the decisions must answer. */
  decided: Answer;
  /** What a live service may answer instead, besides the decided answer; anything else fails. */
  live: Answer;
  /**
   * The drift noted when a live service answers so (`{case}`: what the test asked; `{answer}`: the
   * answer). None where the client notes it already (the contract's `x-expect`).
   */
  drift?: string;
  /** The behaviours of the real service that give the other answer (`allowances.ts`, the twin's). */
  allowances?: readonly string[];
}

const statuses = (...codes: number[]): Answer => ({ statuses: codes });
const NOT_5XX: Answer = { below: 500 };
const HOLDS: Answer = { holds: true };
const ANYTHING: Answer = { anything: true };

const DECISIONS = {
  'item-id-not-uuid': {
    rules: ['CONT-01', 'CONT-02'],
    question: 'What answers an item id that is not a UUID? 404, as any id that names no item.',
    decided: statuses(404),
    live: statuses(400),
    drift: 'an item id that is not a UUID is answered 400, not 404',
    allowances: ['content-id-not-uuid-400'],
  },
  'page-token-without-since': {
    rules: ['NOTIF-01'],
    question: 'Does a page token stand in for a missing since? No: since is required, 400.',
    decided: statuses(400),
    live: statuses(200),
    drift: 'a page token without since is answered 200, not 400',
    allowances: ['next-page-alone'],
  },
  'future-since': {
    rules: ['NOTIF-03'],
    question: 'What answers a since in the future? 400; live, an empty page as the sibling feed answers.',
    decided: statuses(400),
    live: statuses(200),
    drift: 'a since in the future is answered 200 with an empty page, not 400',
    allowances: ['future-since-empty'],
  },
  'since-form-read': {
    rules: ['NOTIF-02'],
    question: 'Is a since in an RFC 3339 form no example shows read? Yes, as the instant it names.',
    decided: statuses(200),
    live: statuses(400),
    drift: 'a since written {case} is refused',
  },
  'since-space-or-leap-second': {
    rules: ['NOTIF-02'],
    question: 'What answers a since with a space for T, or a leap second? 400, with what was wrong.',
    decided: statuses(400),
    live: NOT_5XX,
    drift: 'a since with a {case} is answered {answer}; the mock refuses it',
  },
  'request-url-keeps-parameters': {
    rules: ['NOTIF-05'],
    question: "Does the feed's requestUrl keep every parameter requested, those the contract does not name?",
    decided: HOLDS,
    live: ANYTHING,
    drift: 'requestUrl leaves out {case}, which was requested',
    allowances: ['type-and-monitor-stripped'],
  },
  'next-link-since-and-page': {
    rules: ['NOTIF-07'],
    question: "What does a next link carry? since and page, an empty page's link too.",
    decided: { matches: /by since and page$/ },
    live: { oneOf: ['a page with changes links by page alone', 'an empty page links by since alone'] },
    allowances: ['next-page-alone', 'empty-next-since-only'],
  },
  'change-type-upper-case': {
    rules: ['NOTIF-08'],
    question: "In what case is a notification type's last segment? Upper case.",
    decided: { matches: /ThingChangeType\/[A-Z_]+$/ },
    live: { matches: /ThingChangeType\/[^/]+$/ },
  },
  'foreign-page-token': {
    rules: ['NOTIF-09'],
    question: 'What answers a page token no next link gave? 400, with what was wrong.',
    decided: statuses(400),
    live: NOT_5XX,
    drift: 'a page token no next link gave is answered {answer}',
  },
  'percent-encoded-page-token': {
    rules: ['NOTIF-09'],
    question: 'Is a page token with every octet percent-encoded the same token? Yes (RFC 3986 §6.2.2.2).',
    decided: statuses(200),
    live: NOT_5XX,
    drift: 'a page token with every octet percent-encoded is answered {answer}',
  },
  'decided-refusal-says-why': {
    rules: ['NOTIF-14', 'PROF-08'],
    question: "Does a refusal of this project's deciding say what was wrong? Yes, as every 400 does.",
    decided: HOLDS,
    live: ANYTHING,
    drift: 'a refusal of {case} says nothing of what was wrong',
  },
  'licence-seat-limit': {
    rules: ['LIC-08'],
    question: 'What is seatLimit, a number in the interface? A non-negative integer.',
    decided: HOLDS,
    live: ANYTHING,
  },
  'page-request-url-origin': {
    rules: ['PAGE-02'],
    question: "Which origin does a page's requestUrl name? The one requested.",
    decided: { asked: true },
    live: ANYTHING,
    drift: 'requestUrl names the origin {answer}, not the one requested',
  },
  'lifecycle-milliseconds': {
    rules: ['PAGE-07'],
    question: 'Do lifecycle timestamps carry milliseconds? Yes, and Z.',
    decided: { matches: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/ },
    live: ANYTHING,
  },
  'plain-http-redirected': {
    rules: ['TLS-01'],
    question: 'How is a request over plain HTTP turned away? Redirected to HTTPS; a refusal does as well.',
    decided: { oneOf: ['redirected'] },
    live: { oneOf: ['refused'] },
    drift: 'plain HTTP is refused ({case}), not redirected to HTTPS',
  },
  'request-body-refused': {
    rules: ['HTTP-02'],
    question: 'What answers a request body where the endpoint takes none? 400, "Not supported".',
    decided: statuses(400),
    live: NOT_5XX,
    drift: 'a request body where none is taken is answered {answer}',
  },
  'request-body-not-supported': {
    rules: ['HTTP-02'],
    question: 'What does the 400 to a request body say? "Not supported".',
    decided: { matches: /Not supported/ },
    live: ANYTHING,
    drift: 'the refusal of a request body says {answer}',
  },
  'head-headers-as-get': {
    rules: ['HTTP-04'],
    question: "Does HEAD carry GET's headers, those of one exchange aside? Yes (RFC 9110 §9.3.2).",
    decided: { asked: true },
    live: ANYTHING,
    drift: "HEAD answers other headers than GET's",
  },
  'options-allow': {
    rules: ['HTTP-04'],
    question: "What answers OPTIONS? 204, with Allow listing the operation's method, OPTIONS and HEAD.",
    decided: { equals: { status: 204, missing: [] } },
    live: ANYTHING,
    drift: 'OPTIONS is answered {answer}',
  },
  'deprecated-served': {
    rules: ['DEPR-01'],
    question: 'Are the deprecated v1 endpoints still served? Yes, every one.',
    decided: { equals: [] },
    // A retired one answers 404 or 410 with a JSON body: reported gone, not drift.
    live: ANYTHING,
  },
  'image-edge-size': {
    rules: ['IMG-07'],
    question: 'Is an image at the edge of a limit served? Yes, 200.',
    decided: statuses(200),
    live: statuses(400),
    drift: 'an image at the edge of a limit ({case}) is refused',
  },
  'image-side-past-limit': {
    rules: ['IMG-07'],
    question: 'What answers a side past 65,000, dpr counted? A 4xx, as the limit says.',
    decided: { from: 400, to: 499 },
    live: NOT_5XX,
    drift: 'a side past 65,000 ({case}) is answered {answer}',
    allowances: ['image-no-side-limit'],
  },
  'image-auto-webp': {
    rules: ['IMG-02'],
    question: 'Does format auto serve WebP to a client that asks for it? Yes (the interface says "can").',
    decided: { oneOf: ['image/webp'] },
    live: ANYTHING,
    drift: 'auto with WebP in Accept served {answer}',
  },
  'image-source-optional': {
    rules: ['HTTP-04'],
    question: 'Is a request of the image service without source served? Yes: it is optional.',
    decided: statuses(200),
    live: statuses(400),
    drift: 'a request without source is refused',
    allowances: ['image-source-required'],
  },
  'image-refusal-json': {
    rules: ['IMG-04'],
    question: 'In what is a refusal of a removed parameter or mode written? JSON, naming it.',
    decided: { oneOf: ['application/json'] },
    live: ANYTHING,
    drift: 'the 400 for {case} is {answer}',
    allowances: ['image-errors-html'],
  },
  'image-error-by-accept': {
    rules: [],
    question: 'In what is an error of the image service written? JSON, or HTML to a client that prefers it.',
    decided: HOLDS,
    live: ANYTHING,
    drift: 'an error is {case}',
    allowances: ['image-errors-html'],
  },
} as const satisfies Record<string, Decision>;

export type DecisionId = keyof typeof DECISIONS;

/** The decision of an id. */
export const decision = (id: DecisionId): Decision => DECISIONS[id];

/** Every decision, by id: the table the reports and the docs may show. */
export const decisions = (): [DecisionId, Decision][] =>
  Object.entries(DECISIONS) as [DecisionId, Decision][];

// A row names only behaviours the allowances know: a renamed one fails here, on first use.
for (const [, row] of decisions()) for (const name of row.allowances ?? []) allowance(name);

/** Whether an answer admits what the target answered (`asked`: what the test asked for). */
export function admits(answer: Answer, actual: unknown, asked?: unknown): boolean {
  if ('statuses' in answer) return answer.statuses.includes(actual as number);
  if ('below' in answer) return (actual as number) < answer.below;
  if ('from' in answer) return (actual as number) >= answer.from && (actual as number) <= answer.to;
  if ('matches' in answer) return typeof actual === 'string' && answer.matches.test(actual);
  if ('oneOf' in answer) return answer.oneOf.includes(actual as string);
  if ('equals' in answer) return isDeepStrictEqual(actual, answer.equals);
  if ('asked' in answer) return isDeepStrictEqual(actual, asked);
  if ('holds' in answer) return actual === true;
  return true;
}

/**
 * How an answer stands against a decision: the decided one; another a live service may give
 * (never where the target keeps the decisions); or neither, which fails.
 */
export function judge(
  row: Decision,
  actual: unknown,
  { strict, asked }: { strict: boolean; asked?: unknown },
): 'decided' | 'other' | 'neither' {
  if (admits(row.decided, actual, asked)) return 'decided';
  return !strict && admits(row.live, actual, asked) ? 'other' : 'neither';
}

/** An answer in words, for a failure's message. */
export function describeAnswer(answer: Answer): string {
  if ('statuses' in answer) return answer.statuses.join(' or ');
  if ('below' in answer) return `any status below ${answer.below}`;
  if ('from' in answer) return `a status from ${answer.from} to ${answer.to}`;
  if ('matches' in answer) return `text matching ${answer.matches}`;
  if ('oneOf' in answer) return answer.oneOf.join(' or ');
  if ('equals' in answer) return JSON.stringify(answer.equals);
  if ('asked' in answer) return 'what was asked';
  return 'holds' in answer ? 'yes' : 'anything';
}
