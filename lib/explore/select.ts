import { writeJson } from '../arbitraries/http-forms.ts';
import type { CallOptions, KeyPlacement, RawOptions } from '../client/types.ts';
import { VARIABLES } from '../config.ts';
import type { Operation } from '../contract/index.ts';
import { isFormParameter } from './form-cases.ts';
import type { CaseRequest, CaseValue, DataName, ExploreCase, Spoil } from './types.ts';

/** The target's data a case may need, by name. */
export type ExploreData = Partial<Record<DataName, string>>;

/** A key on no whitelist, and a token no one issued: what the refusal cases send. */
export const UNKNOWN_KEY = 'clm-explore-unknown-key';
export const UNKNOWN_TOKEN = 'clm-explore-unknown-token';

/** Why a value may be missing: the variable that gives it, or what would. */
const NEEDS: Readonly<Record<DataName, string>> = {
  licenceId: `needs CLM_LICENCE_ID: ${VARIABLES.CLM_LICENCE_ID}`,
  userId: `needs CLM_USER_ID: ${VARIABLES.CLM_USER_ID}`,
  pageId: `needs CLM_PAGE_ID: ${VARIABLES.CLM_PAGE_ID}`,
  contentId: `needs CLM_CONTENT_ID: ${VARIABLES.CLM_CONTENT_ID}`,
  imageUri: `needs CLM_IMAGE_URI: ${VARIABLES.CLM_IMAGE_URI}`,
  token: `needs CLM_USER_TOKEN: ${VARIABLES.CLM_USER_TOKEN}`,
  imageSource: `needs CLM_IMAGE_SOURCE: ${VARIABLES.CLM_IMAGE_SOURCE}`,
  svgImageUri:
    'needs an SVG image the image service can read: no setting names one (CLM_IMAGE_URI is any image)',
  feedNext: 'needs a next link of the feed, the one request its page token goes in (NOTIF-09)',
};

/** A search reads: it is a POST only to carry its query. */
const READ_POSTS = ['searchContent'];

/** Whether a live run may send the operation: reads only, GET and the search POST. */
export function liveSafe(op: Pick<Operation, 'id' | 'method'>): boolean {
  return op.method === 'get' || READ_POSTS.includes(op.id);
}

/**
 * The cases in the order a budget takes them: round by round, each parameter's next positive case,
 * next negative case and next form of HTTP (`(form …)`), in turn, the baseline first; so a small
 * budget still meets every parameter, valid and invalid, and every class of form, before any one
 * of them twice.
 */
export function budgetOrder(cases: readonly ExploreCase[]): ExploreCase[] {
  const groups = { positive: [] as string[], negative: [] as string[], form: [] as string[] };
  const seen = new Map<string, number>();
  return cases
    .map((c, index) => {
      const stream = isFormParameter(c.parameter) ? 'form' : c.kind;
      const list = groups[stream];
      if (!list.includes(c.parameter)) list.push(c.parameter);
      const key = `${c.kind} ${c.parameter}`;
      const rank = seen.get(key) ?? 0;
      seen.set(key, rank + 1);
      const kind = ['positive', 'negative', 'form'].indexOf(stream);
      return { c, rank, group: list.indexOf(c.parameter), kind, index };
    })
    .sort((a, b) => a.rank - b.rank || a.group - b.group || a.kind - b.kind || a.index - b.index)
    .map(({ c }) => c);
}

/**
 * The most cases per operation that fit a budget of requests: the largest N for which every
 * operation running min(N, its cases) stays within it. Infinity when the budget is.
 */
export function perOperationLimit(caseCounts: readonly number[], budget: number): number {
  if (!Number.isFinite(budget)) return Infinity;
  const cost = (n: number) => caseCounts.reduce((sum, count) => sum + Math.min(n, count), 0);
  const most = Math.max(0, ...caseCounts);
  let n = 0;
  while (n < most && cost(n + 1) <= budget) n++;
  return n === most ? Infinity : n;
}

/** The share of a live run's request budget the exploration takes: its cases, its properties, its next link. */
export const EXPLORATION_SHARE = 0.3;

/** Property runs per operation: on the mock, enough to meet each form; live, a few within the budget. */
export const PROPERTY_RUNS = { unmetered: 25, metered: 4 } as const;

/** Requests the exploration spends on the feed's next link, which its page cases follow: one. */
const NEXT_LINK_REQUESTS = 1;

/**
 * What the exploration's cases may spend of a live run's budget: its share, less what the
 * properties of the operations a live run sends (four each) and the feed's next link take.
 */
export function caseBudget(
  requestBudget: number,
  operations: readonly Pick<Operation, 'id' | 'method'>[],
): number {
  const properties = operations.filter(liveSafe).length * PROPERTY_RUNS.metered;
  return Math.max(0, requestBudget * EXPLORATION_SHARE - properties - NEXT_LINK_REQUESTS);
}

export interface Selection {
  run: ExploreCase[];
  left: { case: ExploreCase; reason: string }[];
}

/**
 * The cases a run sends: all of them on the mock; live, only reads, and at most `perOperation` in
 * budget order. The rest are left out with the reason: the same inputs always choose the same cases.
 */
export function selectCases(
  op: Pick<Operation, 'id' | 'method'>,
  cases: readonly ExploreCase[],
  options: { live: boolean; perOperation: number },
): Selection {
  if (options.live && !liveSafe(op))
    return {
      run: [],
      left: cases.map((c) => ({
        case: c,
        reason: 'not a read: a live run sends GET and the search POST only',
      })),
    };
  const ordered = budgetOrder(cases);
  const limit = Math.max(0, options.perOperation);
  const reason = `over the live budget: ${limit} of ${cases.length} cases per operation`;
  return {
    run: ordered.slice(0, limit),
    left: ordered.slice(limit).map((c) => ({ case: c, reason })),
  };
}

function resolved(value: CaseValue, data: ExploreData, missing: Set<string>): string {
  if (typeof value === 'string') return value;
  const found = data[value.data];
  if (found === undefined) missing.add(NEEDS[value.data]);
  return value.upper ? (found ?? '').toUpperCase() : (found ?? '');
}

/** A token spoilt as a client might: one character changed in the middle, or the end cut off. */
export function spoilt(value: string, spoil: Spoil): string {
  if (value.length < 2) return value;
  if (spoil === 'truncated') return value.slice(0, Math.max(1, value.length - 4));
  const at = Math.floor(value.length / 2);
  return `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
}

function values(
  from: Record<string, CaseValue>,
  data: ExploreData,
  missing: Set<string>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(from).map(([k, v]) => [k, resolved(v, data, missing)]));
}

const KEYS: Record<ExploreCase['request']['key'], KeyPlacement> = {
  header: 'header',
  query: 'query',
  none: 'none',
  'unknown-header': { header: UNKNOWN_KEY },
  'unknown-query': { query: UNKNOWN_KEY },
};

/**
 * The link a case follows: as given, or with its page token spoilt. A link with no token (live, an
 * empty page's may carry `since` alone) has none to spoil.
 */
function followed(link: NonNullable<CaseRequest['link']>, data: ExploreData, missing: Set<string>): string {
  const href = resolved({ data: link.data }, data, missing);
  if (!link.spoil || !href) return href;
  const url = new URL(href);
  const token = url.searchParams.get('page');
  if (!token) missing.add('needs a next link that carries a page token to spoil (NOTIF-09)');
  url.searchParams.set('page', spoilt(token ?? '', link.spoil));
  return url.toString();
}

/**
 * A case as the client sends it: the operation with its parameters (`call`), or a link followed as
 * given (`raw`).
 */
export type CaseOptions = CallOptions | RawOptions;

/** A case's body as the client sends it: a JSON value, or text (a JSON value written in other ways). */
function bodyOf(body: NonNullable<CaseRequest['body']>): unknown {
  if ('raw' in body) return body.raw;
  return body.syntax?.length ? writeJson(body.json, body.syntax) : body.json;
}

/** The client's options for a case, or why it cannot run: a value the target's data lacks. */
export function resolveCase(
  c: ExploreCase,
  data: ExploreData,
): { options: CaseOptions } | { reason: string } {
  const missing = new Set<string>();
  const { request } = c;
  const common = {
    headers: values(request.headers, data, missing),
    key: KEYS[request.key],
    checks: 'all' as const,
  };
  const options: CaseOptions = request.link
    ? { ...common, url: followed(request.link, data, missing) }
    : { ...common, path: values(request.path, data, missing), query: values(request.query, data, missing) };
  if (request.token === 'valid') options.token = resolved({ data: 'token' }, data, missing);
  if (request.token === 'unknown') options.token = UNKNOWN_TOKEN;
  if (request.form) options.form = request.form;
  if (request.body) options.body = bodyOf(request.body);
  // A body written as text is sent as it is: its media type is the JSON it still is.
  if (request.body && 'json' in request.body && request.body.syntax?.length)
    if (!Object.keys(common.headers).some((h) => h.toLowerCase() === 'content-type'))
      common.headers['Content-Type'] = 'application/json';
  if (missing.size > 0) return { reason: [...missing].join('; ') };
  return { options };
}
