import type { TargetKind } from '../config.ts';
import { ApiClient, type CallOptions, type ClientLimits, type Target } from '../client/client.ts';
import { emptyObservations } from '../client/observations.ts';
import type { Redactor } from '../client/redact.ts';
import { VARIABLES } from '../config.ts';
import type { Contract } from '../contract/index.ts';
import type { RunLedger } from '../run/ledger-server.ts';
import { ask } from './ask.ts';
import {
  compareAnswers,
  type Answer,
  type AnswerSummary,
  type DiffClass,
  type Difference,
} from './compare.ts';
import { walkToFullPage, type PageWalk } from './full-page.ts';
import type { PageLimit } from './page-limit.ts';
import { comparePages } from './page-compare.ts';
import {
  DATA_VARIABLES,
  describeRequest,
  diffRequests,
  type DiffRequest,
  type RequestKind,
  type SideData,
} from './requests.ts';

export type SideName = TargetKind;

/** One side of the comparison: where it is, what it knows, its clock, its ledger and its secrets. */
export interface Side {
  target: Target;
  data: SideData;
  /** The side's "now", epoch milliseconds: its `since` values count from it. */
  now: number;
  ledger: RunLedger;
  redactor: Redactor;
}

export interface PairResult {
  id: string;
  operation: string;
  kind: RequestKind;
  /** The request in words: method, path template, what is special about it. */
  request: string;
  /** What is special about it alone, for a table under its operation. */
  title: string;
  /** Why the pair was not compared: a side lacks the data, or did not answer. */
  skipped?: string;
  mock?: AnswerSummary;
  live?: AnswerSummary;
  differences: Difference[];
}

export interface OperationResult {
  operation: string;
  method: string;
  path: string;
  results: PairResult[];
}

export interface DiffOutcome {
  operations: OperationResult[];
  pairs: { total: number; compared: number; skipped: number; notRun: number };
  sent: Record<SideName, number>;
  counts: Record<DiffClass, number>;
  differences: number;
  /** Why the run ended early (budget, deadline, an unreachable service): the rest is not run. */
  stopped?: string;
}

/** The client ended a request as not run: no answer, or the run's bounds. */
class NotAnswered extends Error {}

const SIDE_WORDS: Record<SideName, string> = { mock: 'the mock', live: 'the service' };

/**
 * One side's walk to a full page: its first pages are the request with earlier `since` values,
 * then the walker follows their next links as given, each through the side's client.
 */
function walkSide(
  client: ApiClient,
  side: Side,
  path: string,
  page: PageLimit,
  options: CallOptions,
  context: Parameters<typeof ask>[1],
): Promise<PageWalk> {
  const { query, path: _, ...rest } = options;
  const firstUrl = (since: string) =>
    `${side.target.baseUrl}${path}?${new URLSearchParams({ ...query, since }).toString()}`;
  const askUrl = (url: string) => ask(() => client.raw({ ...rest, url }), context);
  return walkToFullPage({ page, now: side.now, firstUrl, ask: askUrl });
}

/** What the run of the whole set shares: its sides, their clients and observations, the outcome so far. */
interface DiffRun {
  contract: Contract;
  sides: Record<SideName, Side>;
  clients: Record<SideName, ApiClient>;
  observations: Record<SideName, ReturnType<typeof emptyObservations>>;
  outcome: DiffOutcome;
  /** Operations the service retired, with why: their other requests are not compared either. */
  gone: Map<string, string>;
}

/**
 * Sends every request of the set to both sides, the mock first, and compares each pair. Requests
 * to the service go through the one client, so the run's budget, pace and redaction apply.
 */
export async function runDiff(options: {
  contract: Contract;
  mock: Side;
  live: Side;
  limits: ClientLimits;
  requests?: DiffRequest[];
}): Promise<DiffOutcome> {
  const { contract, limits } = options;
  const requests = options.requests ?? diffRequests(contract);
  const sides = { mock: options.mock, live: options.live };
  const observations = { mock: emptyObservations(), live: emptyObservations() };
  const clients = {} as Record<SideName, ApiClient>;
  for (const name of ['mock', 'live'] as const)
    clients[name] = new ApiClient({
      contract,
      target: sides[name].target,
      ledger: sides[name].ledger,
      limits,
      redactor: sides[name].redactor,
      observations: observations[name],
      stop: (reason) => {
        throw new NotAnswered(reason);
      },
    });
  const outcome: DiffOutcome = {
    operations: [],
    pairs: { total: requests.length, compared: 0, skipped: 0, notRun: 0 },
    sent: { mock: 0, live: 0 },
    counts: { 'mock-wrong': 0, 'service-breaks-contract': 0, 'contract-silent': 0 },
    differences: 0,
  };
  const run: DiffRun = { contract, sides, clients, observations, outcome, gone: new Map() };
  for (const request of requests) await runPair(run, request);
  outcome.sent = { mock: observations.mock.requests, live: observations.live.requests };
  return outcome;
}

/** The pair's line under its operation, the operation's group made on its first request. */
function pairOf(run: DiffRun, request: DiffRequest): PairResult {
  const op = run.contract.operation(request.operation);
  let group = run.outcome.operations.find((g) => g.operation === op.id);
  if (!group) {
    group = { operation: op.id, method: op.method.toUpperCase(), path: op.path, results: [] };
    run.outcome.operations.push(group);
  }
  const pair: PairResult = {
    id: request.id,
    operation: op.id,
    kind: request.kind,
    request: describeRequest(run.contract, request),
    title: request.title,
    differences: [],
  };
  group.results.push(pair);
  return pair;
}

/** Why the pair is not sent: its operation is gone, the run stopped, or a side lacks the data it needs. */
function notSent(run: DiffRun, request: DiffRequest): { skipped: string; notRun: boolean } | undefined {
  const retired = run.gone.get(request.operation);
  if (retired !== undefined) return { skipped: retired, notRun: false };
  if (run.outcome.stopped) return { skipped: `not run: ${run.outcome.stopped}`, notRun: true };
  const lacking = (['mock', 'live'] as const).flatMap((name) =>
    request.needs
      .filter((need) => run.sides[name].data[need] === undefined)
      .map(
        (need) => `${SIDE_WORDS[name]} lacks ${DATA_VARIABLES[need]} (${VARIABLES[DATA_VARIABLES[need]]})`,
      ),
  );
  return lacking.length > 0 ? { skipped: `skipped: ${lacking.join('; ')}`, notRun: false } : undefined;
}

async function runPair(run: DiffRun, request: DiffRequest): Promise<void> {
  const { outcome } = run;
  const pair = pairOf(run, request);
  const not = notSent(run, request);
  if (not) {
    pair.skipped = not.skipped;
    if (not.notRun) outcome.pairs.notRun++;
    else outcome.pairs.skipped++;
    return;
  }
  const asked = await askSides(run, request, pair);
  if (!asked) return;
  const { answers, walks } = asked;
  // With the service's own data, a deprecated operation's 404 or 410 says it is gone: retired, not
  // different (DEPR-01).
  if (request.kind === 'success' && answers.live.gone !== undefined) {
    pair.skipped = `gone: the service answered ${answers.live.gone} (retired, DEPR-01)`;
    run.gone.set(request.operation, pair.skipped);
    outcome.pairs.skipped++;
    return;
  }
  const bases = { mock: run.sides.mock.target.baseUrl, live: run.sides.live.target.baseUrl };
  const compared =
    request.page && walks.mock && walks.live
      ? comparePages(run.contract, request, request.page, { mock: walks.mock, live: walks.live }, bases)
      : compareAnswers(run.contract, request, answers.mock, answers.live);
  Object.assign(pair, compared);
  outcome.pairs.compared++;
  for (const d of compared.differences) outcome.counts[d.class]++;
  outcome.differences += compared.differences.length;
}

/**
 * The request sent to each side, the mock first (a paged one walked to a full page); undefined,
 * with the pair marked not run, when a side does not answer.
 */
async function askSides(run: DiffRun, request: DiffRequest, pair: PairResult) {
  const op = run.contract.operation(request.operation);
  const answers: Partial<Record<SideName, Answer>> = {};
  const walks: Partial<Record<SideName, PageWalk>> = {};
  for (const name of ['mock', 'live'] as const) {
    const side = run.sides[name];
    const client = run.clients[name];
    const options = { ...request.options(side), checks: 'safety' as const, followRedirects: false };
    const context = {
      contract: run.contract,
      operation: op.id,
      observations: run.observations[name],
      redactor: side.redactor,
    };
    try {
      if (request.page) {
        walks[name] = await walkSide(client, side, op.path, request.page, options, context);
        answers[name] = walks[name].answer;
      } else answers[name] = await ask(() => client.call(request.operation, options), context);
    } catch (error) {
      const reason = side.redactor.text((error as Error).message.split('\n')[0]!);
      const { stopped } = await side.ledger.state();
      if (stopped) run.outcome.stopped = stopped;
      pair.skipped = stopped
        ? `not run: ${stopped}`
        : `not compared: ${SIDE_WORDS[name]} did not answer (${reason})`;
      run.outcome.pairs.notRun++;
      return undefined;
    }
  }
  if (!answers.mock || !answers.live) return undefined;
  return { answers: { mock: answers.mock, live: answers.live }, walks };
}
