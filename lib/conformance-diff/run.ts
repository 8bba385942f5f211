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
  /** Operations the service retired, with why: their other requests are not compared either. */
  const gone = new Map<string, string>();
  for (const request of requests) {
    const op = contract.operation(request.operation);
    let group = outcome.operations.find((g) => g.operation === op.id);
    if (!group) {
      group = { operation: op.id, method: op.method.toUpperCase(), path: op.path, results: [] };
      outcome.operations.push(group);
    }
    const pair: PairResult = {
      id: request.id,
      operation: op.id,
      kind: request.kind,
      request: describeRequest(contract, request),
      title: request.title,
      differences: [],
    };
    group.results.push(pair);
    const retired = gone.get(op.id);
    if (retired !== undefined) {
      pair.skipped = retired;
      outcome.pairs.skipped++;
      continue;
    }
    if (outcome.stopped) {
      pair.skipped = `not run: ${outcome.stopped}`;
      outcome.pairs.notRun++;
      continue;
    }
    const lacking = (['mock', 'live'] as const).flatMap((name) =>
      request.needs
        .filter((need) => sides[name].data[need] === undefined)
        .map(
          (need) => `${SIDE_WORDS[name]} lacks ${DATA_VARIABLES[need]} (${VARIABLES[DATA_VARIABLES[need]]})`,
        ),
    );
    if (lacking.length > 0) {
      pair.skipped = `skipped: ${lacking.join('; ')}`;
      outcome.pairs.skipped++;
      continue;
    }
    const answers: Partial<Record<SideName, Answer>> = {};
    const walks: Partial<Record<SideName, PageWalk>> = {};
    for (const name of ['mock', 'live'] as const) {
      const side = sides[name];
      const options = { ...request.options(side), checks: 'safety' as const, followRedirects: false };
      const context = {
        contract,
        operation: op.id,
        observations: observations[name],
        redactor: side.redactor,
      };
      try {
        if (request.page) {
          walks[name] = await walkSide(clients[name], side, op.path, request.page, options, context);
          answers[name] = walks[name].answer;
        } else answers[name] = await ask(() => clients[name].call(request.operation, options), context);
      } catch (error) {
        const reason = sides[name].redactor.text((error as Error).message.split('\n')[0]!);
        const { stopped } = await sides[name].ledger.state();
        if (stopped) outcome.stopped = stopped;
        pair.skipped = stopped
          ? `not run: ${stopped}`
          : `not compared: ${SIDE_WORDS[name]} did not answer (${reason})`;
        outcome.pairs.notRun++;
        break;
      }
    }
    if (!answers.mock || !answers.live) continue;
    // With the service's own data, a deprecated operation's 404 or 410 says it is gone: retired, not
    // different (DEPR-01).
    if (request.kind === 'success' && answers.live.gone !== undefined) {
      pair.skipped = `gone: the service answered ${answers.live.gone} (retired, DEPR-01)`;
      gone.set(op.id, pair.skipped);
      outcome.pairs.skipped++;
      continue;
    }
    const bases = { mock: sides.mock.target.baseUrl, live: sides.live.target.baseUrl };
    const compared =
      request.page && walks.mock && walks.live
        ? comparePages(contract, request, request.page, { mock: walks.mock, live: walks.live }, bases)
        : compareAnswers(contract, request, answers.mock, answers.live);
    Object.assign(pair, compared);
    outcome.pairs.compared++;
    for (const d of compared.differences) outcome.counts[d.class]++;
    outcome.differences += compared.differences.length;
  }
  outcome.sent = { mock: observations.mock.requests, live: observations.live.requests };
  return outcome;
}
