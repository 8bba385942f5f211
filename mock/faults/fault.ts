import type { DocumentName } from '../../lib/contract/index.ts';
import { CLEAN, type Defects } from '../behaviour.ts';
import { PendingBytes, RawJson, type Context, type MockRequest, type MockResponse } from '../types.ts';

/** What a fault changes, for the reports and for choosing the tests that meet it. */
export type FaultKind = 'shape' | 'value' | 'status' | 'protocol' | 'header' | 'paging' | 'timing';

/** The rest of the pipeline: the request, handled with these defects switched on. */
export type Next = (request: MockRequest, switches?: Partial<Defects>) => MockResponse;

/** What a step may see of a request once the pipeline has routed it. */
export interface Seen {
  context: Context | undefined;
  /** The service the path belongs to, matched by an operation or not. */
  document?: DocumentName;
}

/**
 * A step around the clean pipeline, named and described: it may change the request, the defects
 * the handlers read, or the response. Steps nest, so any set of them composes without losing one
 * another. A fault is one; so is a behaviour of a profile (mock/profiles).
 */
export interface Step {
  name: string;
  description: string;
  apply: (request: MockRequest, next: Next, seen: Seen) => MockResponse;
}

/**
 * A fault is data: a step that breaks one rule of the catalogue, and the kind of break it is.
 */
export interface Fault extends Step {
  /** The one rule of the catalogue that the fault breaks. */
  rule: string;
  /**
   * The one rule the fault breaks as well by its nature (a 5xx to a valid `since` breaks HTTP-04 as
   * well as NOTIF-02): the attribution run accepts it red beside `rule`, and nothing else.
   */
  alsoBreaks?: readonly string[];
  kind: FaultKind;
  /**
   * Why a live run cannot see this fault although its rule is checked live: it needs the service's
   * ground truth, or it breaks only what the interface leaves open (drift live, not a failure).
   */
  notLive?: string;
}

/**
 * What a fault that never delivers a change breaks as well, whatever link lost it: NOTIF-09 (every
 * change after since, exactly once).
 */
export const LOSES_CHANGES: readonly string[] = ['NOTIF-09'];

/**
 * What a fault that rewrites every 400 of an operation breaks as well: the 400 for a request body
 * where none is taken (HTTP-02) is one of them.
 */
export const EVERY_400: readonly string[] = ['HTTP-02'];

/** What a fault that takes a right Content-Type for a wrong one breaks as well: PROF-06's judgement. */
export const MISJUDGES_MEDIA_TYPE: readonly string[] = ['PROF-06'];

/** What a fault answering with a 5xx breaks as well, whatever input brought it: HTTP-04. */
export const SERVER_ERROR: readonly string[] = ['HTTP-04'];

export type Rewrite = (
  response: MockResponse,
  request: MockRequest,
  context: Context | undefined,
) => MockResponse;

/** A fault that switches on defects the handlers know: it changes what a handler decides. */
export function switches(changed: Partial<Defects>): Step['apply'] {
  return (request, next) => next(request, changed);
}

/** A fault that rewrites the responses of these operations ('*': every response, matched or not). */
export function rewrite(operations: string[], apply: Rewrite): Step['apply'] {
  return (request, next, seen) => {
    const response = next(request);
    const { context } = seen;
    const concerned = operations.includes('*') || (context && operations.includes(context.operation.id));
    return concerned ? apply(response, request, context) : response;
  };
}

/**
 * A fault that answers some requests of these operations as the service answers another path: the
 * pipeline routes the path (`pathFor`, given the clean answer), so no fault reaches into a handler.
 */
export function answeredAs(
  operations: string[],
  pathFor: (response: MockResponse, request: MockRequest, context: Context) => string | undefined,
): Step['apply'] {
  return (request, next, seen) => {
    const response = next(request);
    const { context } = seen;
    if (!context || !operations.includes(context.operation.id)) return response;
    const path = pathFor(response, request, context);
    return path === undefined ? response : next({ ...request, path });
  };
}

/** Two sets of switches as one: lists add up (two faults opening two operations open both). */
export function mergeSwitches(a: Partial<Defects>, b: Partial<Defects>): Partial<Defects> {
  const merged: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b) as [string, unknown][]) {
    const before = merged[key];
    merged[key] =
      Array.isArray(before) && Array.isArray(value)
        ? [...(before as unknown[]), ...(value as unknown[])]
        : value;
  }
  return merged;
}

/**
 * The clean pipeline with the steps around it, the first outermost. `handle` gets the defects in
 * force; a step sees the request before and the response after.
 */
export function withSteps(
  steps: readonly Step[],
  handle: (request: MockRequest, defects: Defects, seen: Seen) => MockResponse,
): (request: MockRequest) => MockResponse {
  return (request) => {
    const seen: Seen = { context: undefined };
    const chain = steps.reduceRight<Next>(
      (next, step) => (req, changed) =>
        step.apply(req, (inner, more) => next(inner, mergeSwitches(changed ?? {}, more ?? {})), seen),
      (req, changed) => handle(req, { ...CLEAN, ...changed }, seen),
    );
    return chain(request, {});
  };
}

export type Json = Record<string, unknown>;

/** Rewrites a JSON body of a given status, leaving every other response alone. */
export function onStatus(
  status: number,
  change: (body: Json, request: MockRequest, context: Context | undefined) => MockResponse | void,
): Rewrite {
  return (response, request, context) => {
    const { body } = response;
    const bytes = Buffer.isBuffer(body) || body instanceof PendingBytes;
    if (response.status !== status || typeof body !== 'object' || body === null || bytes) return response;
    const copy = (
      response.body instanceof RawJson ? JSON.parse(response.body.toString()) : structuredClone(response.body)
    ) as Json;
    return change(copy, request, context) ?? { ...response, body: copy };
  };
}

export function otherUuid(uuid: string): string {
  return uuid.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
}
