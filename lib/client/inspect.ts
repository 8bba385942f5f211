import { ALL_CHECKS, HEAD_CHECKS, runChecks, SAFETY_CHECKS, type Exchange } from '../checks/index.ts';
import type { Contract, DocumentName, Operation } from '../contract/index.ts';
import type { Call } from './call.ts';
import { driftOf } from './drift.ts';
import { goneStatus, recordDeprecation, type Observations } from './observations.ts';
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

/** The operation a URL names, if the contract has one. */
function operationOf(
  contract: Contract,
  target: Target,
  requestMethod: string,
  url: string,
): Operation | undefined {
  // HEAD is GET without the body (RFC 9110 §9.3.2): its answer is checked as GET's.
  const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
  const bases: [DocumentName, string | undefined][] = [
    ['images', target.imagesUrl],
    ['main', target.baseUrl],
    ['main', target.httpBaseUrl],
  ];
  for (const [document, base] of bases) {
    if (!base || !url.startsWith(`${base}/`)) continue;
    try {
      const found = contract.match(document, method, url.slice(base.length).split('?')[0]!);
      return 'operation' in found ? found.operation : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Runs every check on one answer, records coverage and drift, and throws on a failed check. */
export function inspect(deps: InspectDeps, answer: Answer, call: Call): ApiResponse {
  const { contract, observations, target } = deps;
  const { method, url, requestHeaders, wire, curl } = answer;
  const { options, redactor } = call;
  const { status, headers, bytes } = wire;
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const operation = operationOf(contract, target, method, url);
  const shownUrl = redactor.text(url);
  const exchange: Exchange = {
    operation,
    method,
    url: shownUrl,
    requestHeaders,
    status,
    responseHeaders: headers,
    text,
    json,
  };
  const isRedirect = status >= 300 && status < 400 && headers.location !== undefined;
  if (operation && !isRedirect && method !== 'HEAD')
    observations.calls.push({ operation: operation.id, status, ms: wire.ms });
  // On its answers, not its refusals: a gateway refuses before the operation can say anything.
  if (operation?.deprecated && status < 300) recordDeprecation(observations, operation.id, headers);
  const gone = goneStatus(target.kind, operation?.deprecated === true, status, json);
  observations.exchanges.push({
    method,
    url: shownUrl,
    status,
    curl,
    body: redactor.text(text.slice(0, 2_000)),
  });
  if (observations.exchanges.length > 20) observations.exchanges.shift();

  const checks = options.checks === 'safety' ? SAFETY_CHECKS : method === 'HEAD' ? HEAD_CHECKS : ALL_CHECKS;
  const failures = runChecks(checks, exchange, {
    contract,
    secrets: redactor.values(),
    strict: target.kind === 'mock',
  });
  if (failures.length > 0) {
    for (const f of failures) observations.findings.push({ check: f.check, title: f.title, rules: f.rules });
    throw new ApiCheckError(failures, curl, `${method} ${shownUrl} -> ${status}`);
  }
  if (operation && json !== undefined && status < 500)
    observations.drift.push(...driftOf(contract, operation, status, headers['content-type'] ?? '', json));
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
