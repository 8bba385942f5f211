/**
 * Exploration from the contract alone: for every operation, cases that send each parameter valid
 * and invalid in turn, as Schemathesis's coverage phase does. A case is plain data: what it sends,
 * what the contract says must come back, and the rules it exercises.
 */
import type { JsonSyntax } from '../arbitraries/grammar/production.ts';
import type { RequestForm } from '../client/types.ts';
import type { TargetKind } from '../config.ts';

/**
 * Values only the target can give: identifiers that exist, a token for its user, and the feed's
 * `next` link (`feedNext`), the one request a real page token goes in.
 */
export type DataName =
  | 'licenceId'
  | 'userId'
  | 'pageId'
  | 'contentId'
  | 'imageUri'
  | 'svgImageUri'
  | 'imageSource'
  | 'token'
  | 'feedNext';

/** How a page token is spoilt: a character changed, its end cut off. */
export type Spoil = 'garbled' | 'truncated';

/** A value written in the case, or one taken from the target's data when the case runs (in upper case, maybe). */
export type CaseValue = string | { data: DataName; upper?: boolean };

export type CaseKind = 'positive' | 'negative';

/** The cases that vary the whole request, not one parameter: the valid request, all optional ones at once. */
export const WHOLE_REQUEST = { baseline: '(baseline)', allOptional: '(all optional)' } as const;

export interface CaseRequest {
  path: Record<string, CaseValue>;
  query: Record<string, CaseValue>;
  headers: Record<string, CaseValue>;
  /**
   * A JSON value (written plainly, or in the ways RFC 8259 allows: `syntax`), or text sent as it is
   * (a body that is not JSON).
   */
  body?: { json: unknown; syntax?: JsonSyntax[] } | { raw: string };
  /** The run's key in the header or the query, none, or a key on no whitelist in either place. */
  key: 'header' | 'query' | 'none' | 'unknown-header' | 'unknown-query';
  /** The bearer token, for operations that take one: the target's, none, or one that names nothing. */
  token?: 'valid' | 'none' | 'unknown';
  /** How the request is written on the wire, where HTTP allows more than one way (`lib/arbitraries/grammar/`). */
  form?: RequestForm;
  /**
   * The feed's `next` link, sent in place of the path and query: followed as given, since a service
   * may refuse its opaque page token anywhere else; or with that token spoilt (`spoil`).
   */
  link?: { data: 'feedNext'; spoil?: Spoil };
}

/**
 * What the contract says must come back. `accept`: one of `statuses` (a documented 2xx, and the
 * statuses that depend on data); `reject`: one of `statuses` (documented 4xx); `tolerate`: any
 * documented status but a 5xx, where the contract does not say the input is refused.
 */
export interface Expectation {
  outcome: 'accept' | 'reject' | 'tolerate';
  statuses: number[];
}

export interface ExploreCase {
  /** `<operation> <parameter> <variant>`: unique, and stable across runs. */
  id: string;
  operation: string;
  kind: CaseKind;
  /** The parameter the case varies: a name, `body.<path>`, or `(baseline)`, `(key)`, `(token)`… */
  parameter: string;
  /** How it varies it: `minimum`, `enum:off`, `missing`, `wrong-type`, `unknown-key`… */
  variant: string;
  rules: string[];
  request: CaseRequest;
  expect: Expectation;
  /** The grammars' productions the request draws (`rfc9110:accept-language:weighted`), counted in the report. */
  productions?: string[];
}

export interface ExploreOptions {
  /** The target's clock, in ms: a generated `date-time` is an hour before it. */
  now: number;
  /** Live, rules checked on the mock only are left out, and what they refuse is only tolerated. */
  mode: TargetKind;
  /** The fast-check seed the drawn values (formats' forms, patterns' alternatives) come from. */
  seed?: number;
  /** The client's body bound (CLM_MAX_BODY_BYTES): no drawn image is larger when it succeeds. */
  maxBodyBytes?: number;
}

/** One case as it ran, or why it did not. */
export interface CaseOutcome {
  case: ExploreCase;
  ran: boolean;
  /** Why it did not run: the data it needs, the budget. */
  reason?: string;
  status?: number;
  /** What went wrong, when it ran and did not get what the contract says. */
  failure?: string;
  /** The request as a command line, when it ran: what a failure is reproduced with. */
  curl?: string;
  /** The rules of the client's checks that failed, when they name any: whose the failure is. */
  owners?: string[];
  /**
   * An invalid value answered with a success: a failure where it must be refused (the mock, which
   * implements every decision), drift where the interface does not say (live).
   */
  served?: boolean;
}
