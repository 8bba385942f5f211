import { ApiCheckError, ApiClient, type ClientLimits, type Target } from '../client/client.ts';
import { emptyObservations, type Observations } from '../client/observations.ts';
import type { Redactor } from '../client/redact.ts';
import { VARIABLES } from '../config.ts';
import { baseMediaType, type Contract } from '../contract/index.ts';
import type { RunLedger } from '../run/ledger-server.ts';
import {
  compareAnswers,
  type Answer,
  type AnswerSummary,
  type DiffClass,
  type Difference,
} from './compare.ts';
import {
  DATA_VARIABLES,
  describeRequest,
  diffRequests,
  type DiffRequest,
  type RequestKind,
  type SideData,
} from './requests.ts';

export type SideName = 'mock' | 'live';

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

/** One side's answer; an answer the client's checks refused is rebuilt from what it recorded. */
async function ask(
  client: ApiClient,
  observations: Observations,
  contract: Contract,
  request: DiffRequest,
  side: Side,
): Promise<Answer> {
  const options = { ...request.options(side), checks: 'safety' as const, followRedirects: false };
  try {
    const r = await client.call(request.operation, options);
    const mediaType = baseMediaType(r.headers['content-type']);
    const body: Answer['body'] =
      r.json !== undefined ? { kind: 'json', value: r.json } : { kind: r.text === '' ? 'empty' : 'not JSON' };
    return { url: r.url, status: r.status, mediaType, headers: r.headers, body, failures: [] };
  } catch (error) {
    if (!(error instanceof ApiCheckError)) throw error;
    // The client recorded the answer (redacted, its body cut at 2,000 characters) before checking it.
    const last = observations.exchanges.at(-1)!;
    const typeFailure = error.failures.find((f) => f.check === 'contentTypeDocumented');
    const documented = Object.keys(contract.response(request.operation, last.status)?.response.content ?? {});
    const mediaType = typeFailure
      ? typeFailure.received.replace('(no Content-Type)', '')
      : baseMediaType(documented[0] ?? '(unknown)');
    // Kept to 2,000 characters, then redacted: a long text that does not parse was cut short.
    let body: Answer['body'] = {
      kind: last.body === '' ? 'empty' : last.body.length < 1_500 ? 'not JSON' : 'cut',
    };
    try {
      if (last.body !== '') body = { kind: 'json', value: JSON.parse(last.body) };
    } catch {
      // Not JSON, or cut: as above.
    }
    // The media type is compared on its own; the client's check of it would say it twice.
    const failures = error.failures
      .filter((f) => f.check !== 'contentTypeDocumented')
      .map((f) =>
        side.redactor.text(`${f.title}: expected ${f.expected}, received ${f.received.slice(0, 200)}`),
      );
    return { url: last.url, status: last.status, mediaType, headers: undefined, body, failures };
  }
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
    for (const name of ['mock', 'live'] as const) {
      try {
        answers[name] = await ask(clients[name], observations[name], contract, request, sides[name]);
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
    const compared = compareAnswers(contract, request, answers.mock, answers.live);
    Object.assign(pair, compared);
    outcome.pairs.compared++;
    for (const d of compared.differences) outcome.counts[d.class]++;
    outcome.differences += compared.differences.length;
  }
  outcome.sent = { mock: observations.mock.requests, live: observations.live.requests };
  return outcome;
}
