import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadContract } from '../lib/contract/index.ts';
import { CLEAN } from '../mock/behaviour.ts';
import { withSteps } from '../mock/faults/index.ts';
import { HANDLERS } from '../mock/handlers/index.ts';
import { parseSince } from '../mock/handlers/feed.ts';
import { logRequest } from '../mock/http/log.ts';
import { checkKey, contextOf, createPipeline, route } from '../mock/pipeline.ts';
import { State } from '../mock/state/index.ts';
import { Throttle } from '../mock/throttle.ts';
import type { MockRequest } from '../mock/types.ts';
import { fullPageSince, NOW } from './page.ts';

export interface Stage {
  name: string;
  /** Microseconds a request spends in it, as the mock answers a clean request. */
  micros: number;
  note: string;
}

/** Microseconds per call of `work`, the best of a few timed runs after a warm-up. */
function time(work: () => unknown, calls = 20_000): number {
  for (let i = 0; i < calls; i++) work();
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) work();
    best = Math.min(best, ((performance.now() - started) * 1000) / calls);
  }
  return best;
}

/** A stand-in for node's request and response: what the log hook touches. */
function fakeExchange(path: string): [IncomingMessage, ServerResponse] {
  const res = Object.assign(new EventEmitter(), { statusCode: 200 });
  const req = { method: 'GET', url: path, headers: { 'x-api-key': 'bench-key' } };
  return [req as unknown as IncomingMessage, res as unknown as ServerResponse];
}

/**
 * What one request for a full page of the feed costs, stage by stage, timed in this process on the
 * same page the throughput is measured on: the pipeline's steps called as it calls them.
 */
export async function stageCosts(): Promise<{ stages: Stage[]; pipeline: number }> {
  const contract = await loadContract();
  const state = new State({ seed: 1, now: Date.parse(NOW), changes: 20_000 });
  const throttle = new Throttle({ perSecond: 1e9, burst: 1e9 });
  const pipeline = createPipeline({ contract, state, faults: () => [], throttle, control: false });
  const rawQuery = `since=${fullPageSince(state)}`;
  const request: MockRequest = {
    method: 'GET',
    path: '/content/notifications',
    query: new URLSearchParams(rawQuery),
    rawQuery,
    headers: { 'x-api-key': 'mock-key-primary' },
    secure: false,
    origin: 'http://127.0.0.1:8080',
    httpsOrigin: 'https://127.0.0.1:8443',
    httpOrigin: 'http://127.0.0.1:8080',
  };
  const imagesBase = contract.basePath('images');
  const context = contextOf(contract, imagesBase, request, state, CLEAN);
  if (!('operation' in context)) throw new Error('The feed page does not route');
  const handler = HANDLERS.listNotifications!;
  const answer = { status: 200 };
  const [req, res] = fakeExchange(`${request.path}?${rawQuery}`);

  const validation = time(() => parseSince(context));
  const handled = time(() => handler(context));
  const uncached = time(() => handler({ ...context, defects: { ...CLEAN } }), 200);
  const wrapping = time(() => withSteps([], () => answer)(request)) - time(() => answer);
  const log = time(() => {
    logRequest(() => undefined, req, res, false, []);
    res.emit('close');
  });
  const stages: Stage[] = [
    { name: 'key check', micros: time(() => checkKey(context, throttle)), note: 'whitelist and throttle' },
    { name: 'routing', micros: time(() => route(contract, imagesBase, request)), note: 'contract match' },
    { name: 'validation', micros: validation, note: 'since against the clock' },
    {
      name: 'fault wrapping',
      micros: 0,
      note: `skipped: none in force (${wrapping.toFixed(2)} µs when on)`,
    },
    { name: 'log hook', micros: 0, note: `skipped: no log (${log.toFixed(2)} µs when kept)` },
    {
      name: 'serialisation',
      micros: Math.max(handled - validation, 0),
      note: `whole page cached by state version (${uncached.toFixed(1)} µs without)`,
    },
  ];
  return { stages, pipeline: time(() => pipeline(request)) };
}
