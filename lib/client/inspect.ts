import { ALL_CHECKS, HEAD_CHECKS, runChecks, SAFETY_CHECKS, type Exchange } from '../checks/index.ts';
import { judgedBody, type Contract } from '../contract/index.ts';
import type { Call } from './call.ts';
import { recordEvidence } from '../evidence/collect.ts';
import { driftOf } from './drift.ts';
import { recordExercised } from './exercised.ts';
import { goneStatus, recordDeprecation, recordExchange, type Observations } from './observations.ts';
import { documentAt, operationAt, promisesOf } from './target.ts';
import type { WireResponse } from './transport.ts';
import { ApiCheckError, type ApiResponse, type Target } from './types.ts';

/** What judging an answer needs of the client: the contract, the target, where to record. */
export interface InspectDeps {
  contract: Contract;
  target: Target;
  observations: Observations;
}

/** One answer as it came off the wire, with the request it answers. */
export interface Answer {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  wire: WireResponse;
  curl: string;
}

/** The JSON of an answer's body, if it is JSON. */
function jsonOf(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * An answer's body kept as evidence, scrubbed, where the run keeps evidence: every answer the
 * client judges, and the gateway's answers during an outage it waits out, which no check judges
 * but a revision may document.
 */
export function keepAsEvidence(
  deps: InspectDeps,
  answer: Answer,
  call: Call,
  json = jsonOf(answer.wire.bytes.toString('utf8')),
): void {
  const { contract, observations, target } = deps;
  const { method, url, requestHeaders, wire } = answer;
  const operation = operationAt(contract, target, method, url);
  if (!operation || !observations.evidence || method === 'HEAD') return;
  const request = { url, headers: requestHeaders, body: call.body };
  const { status, headers } = wire;
  recordEvidence(
    observations.evidence,
    contract,
    { operation: operation.id, status, contentType: headers['content-type'], json, request },
    call.redactor,
  );
}

/** Runs every check on one answer, records coverage and drift, and throws on a failed check. */
export function inspect(deps: InspectDeps, answer: Answer, call: Call): ApiResponse {
  const { contract, observations, target } = deps;
  const { method, url, requestHeaders, wire, curl } = answer;
  const { options, redactor } = call;
  const { status, headers, bytes } = wire;
  const text = bytes.toString('utf8');
  const json = jsonOf(text);
  const operation = operationAt(contract, target, method, url);
  const shownUrl = redactor.text(url);
  const exchange: Exchange = {
    operation,
    document: documentAt(target, url),
    method,
    url: shownUrl,
    requestHeaders,
    status,
    responseHeaders: headers,
    text,
    json,
    ...(options.decides ? { decides: options.decides } : {}),
  };
  const isRedirect = status >= 300 && status < 400 && headers.location !== undefined;
  const request = { url, headers: requestHeaders, body: call.body };
  if (operation && !isRedirect && method !== 'HEAD') {
    observations.calls.push({ operation: operation.id, status, ms: wire.ms });
    recordExercised(observations, contract, operation, request, {
      status,
      contentType: headers['content-type'],
      json,
    });
  }
  // On its answers, not its refusals: a gateway refuses before the operation can say anything.
  if (operation?.deprecated && status < 300) recordDeprecation(observations, operation.id, headers);
  const gone = goneStatus(target.kind, operation?.deprecated === true, status, json);
  const body = redactor.text(text.slice(0, 2_000));
  recordExchange(observations, { method, url: shownUrl, status, curl, body });

  // Before the checks: a body the contract rejects is evidence too (a revision may describe it).
  if (!isRedirect) keepAsEvidence(deps, answer, call, json);
  const checks = options.checks === 'safety' ? SAFETY_CHECKS : method === 'HEAD' ? HEAD_CHECKS : ALL_CHECKS;
  const failures = runChecks(checks, exchange, {
    contract,
    secrets: redactor.values(),
    strict: promisesOf(target.kind).strict,
  });
  if (failures.length > 0) {
    for (const { check, title, rules, place } of failures)
      observations.findings.push({ check, title, rules, ...(place ? { place } : {}) });
    throw new ApiCheckError(failures, curl, `${method} ${shownUrl} -> ${status}`);
  }
  const judged = judgedBody(headers['content-type'] ?? '', json, text);
  if (operation && judged !== undefined && status < 500)
    observations.drift.push(...driftOf(contract, operation, status, headers['content-type'] ?? '', judged));
  return {
    status,
    headers,
    text,
    bytes,
    json,
    url: shownUrl,
    operation: operation?.id,
    redirects: [...call.redirects],
    secretsDropped: !call.carry,
    curl,
    ...(gone !== undefined ? { gone } : {}),
  };
}
