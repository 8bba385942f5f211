import type { TargetKind } from '../config.ts';
import type { EvidenceEntry } from '../evidence/store.ts';
import { promisesOf } from './target.ts';

/** A failed automatic check: its title, the rule that owns what broke (none: the test's), where. */
export interface CheckFinding {
  check: string;
  title: string;
  rules: string[];
  place?: string;
}

/** An outage one request met: the gateway's status, when it began and ended, and whether it was waited out. */
export interface Outage {
  status: number;
  began: string;
  ended: string;
  waitedOut: boolean;
  url: string;
}

/** What one test saw, attached to it for the reporters: coverage, drift, retries, requests, findings. */
export interface Observations {
  /** Each answer matched to an operation; `ms` is its time, where it was measured. */
  calls: { operation: string; status: number; ms?: number }[];
  /** Fields the contract does not name, or expectations beyond the contract (`note` says which). */
  drift: { operation: string; status: number; field: string; note?: string }[];
  retries: { reason: string; url: string }[];
  /** Outages a request waited out (or gave up on), each with its status and when the service was out. */
  outages?: Outage[];
  requests: number;
  /** Automatic checks that failed, with the rule that owns each and where it broke. */
  findings: CheckFinding[];
  /**
   * What deprecated operations said of themselves: RFC 9745 `Deprecation`, RFC 8594 `Sunset`,
   * `Link` rel=deprecation.
   */
  deprecations: { operation: string; deprecation?: string; sunset?: string; link?: string }[];
  /** Deprecated operations a live service retired: 404 or 410 with a JSON body (DEPR-01). */
  gone?: { operation: string; status: number }[];
  /** The last exchanges, redacted, for the failure attachment and the findings. */
  exchanges: { method: string; url: string; status: number; curl: string; body: string }[];
  /** Per operation, what was sent and received, by name: the coverage levels' inputs. */
  exercised?: Record<string, Exercised>;
  /** The contract's operation flows followed to their end (`listPagesV1 → getPageV1 → …`). */
  flows?: string[];
  /**
   * Response bodies kept as evidence for the contract gate, scrubbed and bounded; collected only
   * when the run keeps an evidence store (a list here switches it on).
   */
  evidence?: EvidenceEntry[];
  /** The base URL the test's requests went to: the report names the target the run really used. */
  baseUrl?: string;
  /**
   * Where the test ran, for its replay: the faults switched on, and a base URL shown in place of the
   * run's own.
   */
  replay?: { faults: string[]; origins: Record<string, string>; mockCommand?: string };
}

/**
 * What the run sent to one operation and got from it, by name only (never a value but a
 * parameter's enum member): the inputs of the coverage levels (TCL).
 */
export interface Exercised {
  /** `query since`, `header Content-Type`, `path itemId`, `body`. */
  parameters: string[];
  /** `query format=gif`: members of an enum, constant or boolean sent. */
  values: string[];
  /** `request application/json`, `response application/json`. */
  media: string[];
  /** `200 notifications[].id`: the documented properties an answer of that status carried. */
  properties: string[];
  /**
   * `header-name x-api-key: upper`, `text body.queryString: astral`, `integer query dpr: >=2^31`:
   * the forms requests took on the wire, by dimension (`forms-seen.ts`).
   */
  forms?: string[];
}

export const OBSERVATIONS_ATTACHMENT = 'clm-observations';

export function emptyObservations(): Observations {
  return {
    calls: [],
    drift: [],
    retries: [],
    outages: [],
    requests: 0,
    findings: [],
    deprecations: [],
    gone: [],
    exchanges: [],
    exercised: {},
    flows: [],
  };
}

/**
 * Whether an answer says a deprecated operation is gone: only a live service retires one (the
 * mock serves the whole contract), and only with a JSON body (a bare 404 is a routing fault).
 */
export function goneStatus(
  target: TargetKind,
  deprecated: boolean,
  status: number,
  json: unknown,
): number | undefined {
  return !promisesOf(target).servesDeprecated &&
    deprecated &&
    (status === 404 || status === 410) &&
    json !== undefined
    ? status
    : undefined;
}

/** A gone operation, once per operation and status. */
export function recordGone(observations: Observations, operation: string, status: number) {
  const gone = (observations.gone ??= []);
  if (!gone.some((g) => g.operation === operation && g.status === status)) gone.push({ operation, status });
}

/** A deprecated operation's signals, once per distinct set: never a failure, reported per operation. */
export function recordDeprecation(
  observations: Observations,
  operation: string,
  headers: Record<string, string>,
) {
  const link = headers.link
    ?.split(/,(?=\s*<)/)
    .find((l) => /rel="?deprecation"?/i.test(l))
    ?.trim();
  const seen = { operation, deprecation: headers.deprecation, sunset: headers.sunset, link };
  const same = (d: Observations['deprecations'][number]) => JSON.stringify(d) === JSON.stringify(seen);
  if (!observations.deprecations.some(same)) observations.deprecations.push(seen);
}

/** An operation flow followed to its end, once. */
export function recordFlow(observations: Observations, flow: string) {
  const flows = (observations.flows ??= []);
  if (!flows.includes(flow)) flows.push(flow);
}

/** One exchange, redacted, kept among the last twenty for a failure's attachment. */
export function recordExchange(observations: Observations, exchange: Observations['exchanges'][number]) {
  observations.exchanges.push(exchange);
  if (observations.exchanges.length > 20) observations.exchanges.shift();
}
