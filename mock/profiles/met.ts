import { PendingBytes, RawJson, type MockRequest, type MockResponse } from '../types.ts';
import type { Behaviour } from './profile.ts';

/**
 * How many answers each behaviour of a profile changed, by name, over the mock's life: a behaviour
 * never met in a run proves nothing about the run (`mock.behavioursMet()`).
 */
export type Met = Map<string, number>;

/** Each body's text once made: a body is the answer one step gives and the next step gets. */
const texts = new WeakMap<object, string>();

/** A body as text to compare: JSON canonically (a cached page and its copy alike), bytes as they are. */
function comparable(body: unknown): unknown {
  if (Buffer.isBuffer(body) || body instanceof PendingBytes) return body;
  if (typeof body !== 'object' || body === null) return JSON.stringify(body);
  let text = texts.get(body);
  if (text === undefined)
    texts.set(body, (text = JSON.stringify(body instanceof RawJson ? JSON.parse(body.toString()) : body)));
  return text;
}

const headersOf = (response: MockResponse) =>
  JSON.stringify(Object.entries(response.headers ?? {}).sort(([a], [b]) => a.localeCompare(b)));

/** Whether two answers say the same: status, headers and body (a body copied unchanged is the same). */
function sameAnswer(a: MockResponse, b: MockResponse): boolean {
  if (a === b) return true;
  if (a.status !== b.status || headersOf(a) !== headersOf(b)) return false;
  if (a.body === b.body) return true;
  const [x, y] = [comparable(a.body), comparable(b.body)];
  return Buffer.isBuffer(x) && Buffer.isBuffer(y) ? x.equals(y) : x === y;
}

const sameRequest = (a: MockRequest, b: MockRequest) =>
  a === b ||
  (a.method === b.method &&
    a.path === b.path &&
    a.query.toString() === b.query.toString() &&
    a.body === b.body);

/** The behaviour, counting in `met` each answer it changed. */
export function metered(behaviour: Behaviour, met: Met): Behaviour {
  return {
    ...behaviour,
    apply: (request, next, seen) => {
      let sent: { request: MockRequest; response: MockResponse } | undefined;
      const response = behaviour.apply(
        request,
        (inner, more) => (sent = { request: inner, response: next(inner, more) }).response,
        seen,
      );
      const changed = behaviour.changed
        ? behaviour.changed(request, response, seen)
        : !sent || !sameRequest(request, sent.request) || !sameAnswer(sent.response, response);
      if (changed) met.set(behaviour.name, (met.get(behaviour.name) ?? 0) + 1);
      return response;
    },
  };
}
