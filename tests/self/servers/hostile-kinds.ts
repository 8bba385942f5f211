import type { IncomingMessage, ServerResponse } from 'node:http';
import { originForm, sendJson, withoutKey, type Timers } from './common.ts';
import { gzipBomb } from './gzip-bomb.ts';

/** Every way the hostile service misbehaves. */
export const HOSTILE_KINDS = [
  'redirect-foreign',
  'redirect-localhost',
  'redirect-loop',
  'redirect-with-key',
  'redirect-downgrade',
  'reset',
  'stall',
  'drip',
  'huge',
  'gzip-bomb',
  'throttle',
  'slow-headers',
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface HostileTiming {
  /** How long a stalled response stays open before the server gives up (the client should first). */
  stallLimitMs: number;
  /** The pause between two bytes of a drip. */
  dripIntervalMs: number;
  /** The wait before a slow response sends its headers. */
  slowHeadersMs: number;
}

export const DEFAULT_TIMING: HostileTiming = {
  stallLimitMs: 120_000,
  dripIntervalMs: 500,
  slowHeadersMs: 10_000,
};

export const HUGE_BYTES = 50 * 1024 * 1024;
/** A valid JSON body sent one byte at a time: 38 bytes, 19 s at the default pace. */
export const DRIP_BODY = '{"drip":"one byte every half a second"}';
/** The part of a JSON body a stalled response sends before going quiet. */
export const STALL_PREFIX = '{"notifications":[{"type":"http://www.ft.com/thing/ThingChangeType/UPDATE",';

/** Where a request came in and where its redirects may point. */
export interface Origins {
  /** The origin the request was addressed to (by the name in its `Host`). */
  self: string;
  /** The same server under its other name (127.0.0.1 ↔ localhost). */
  otherName: string;
  foreign: string;
  http: string;
}

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  origins: Origins;
  timers: Timers;
  timing: HostileTiming;
}

function redirect(res: ServerResponse, location: string): void {
  sendJson(res, 302, { message: 'Moved' }, { Location: location });
}

/** Streams `total` bytes of a JSON string, pausing on back-pressure and stopping when the client leaves. */
function stream(res: ServerResponse, total: number): void {
  const head = Buffer.from('{"huge":"');
  const tail = Buffer.from('"}');
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  let left = total - head.length - tail.length;
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(total) });
  res.write(head);
  const pump = (): void => {
    while (left > 0 && !closed) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= part.length;
      if (!res.write(part)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end(tail);
  };
  pump();
}

function bomb(res: ServerResponse): void {
  const { parts, bytes } = gzipBomb();
  let next = 0;
  let closed = false;
  res.on('close', () => (closed = true));
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Encoding': 'gzip',
    'Content-Length': String(bytes),
  });
  const pump = (): void => {
    while (next < parts.length && !closed) {
      if (!res.write(parts[next++])) {
        res.once('drain', pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}

/** Acts out one kind on an exchange whose request body has been read. */
export function misbehave(kind: HostileKind, { req, res, origins, timers, timing }: Exchange): void {
  const target = originForm(req.url ?? '/');
  switch (kind) {
    case 'redirect-foreign':
      // The path and query as received: an `apiKey` in it is the service's leak, not the client's.
      return redirect(res, origins.foreign + target);
    case 'redirect-localhost':
      return redirect(res, origins.otherName + target);
    case 'redirect-loop':
      return redirect(res, origins.self + target);
    case 'redirect-with-key':
      // No key in the Location: a client that adds one sends it to another origin.
      return redirect(res, origins.foreign + withoutKey(target));
    case 'redirect-downgrade':
      return redirect(res, origins.http + target);
    case 'reset':
      return void req.socket.destroy();
    case 'stall': {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(STALL_PREFIX);
      const limit = timers.after(timing.stallLimitMs, () => res.destroy());
      res.on('close', () => timers.clear(limit));
      return;
    }
    case 'drip': {
      const body = Buffer.from(DRIP_BODY);
      let sent = 0;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
      const tick = timers.every(timing.dripIntervalMs, () => {
        res.write(body.subarray(sent, ++sent));
        if (sent < body.length) return;
        timers.clear(tick);
        res.end();
      });
      res.on('close', () => timers.clear(tick));
      return;
    }
    case 'huge':
      return stream(res, HUGE_BYTES);
    case 'gzip-bomb':
      return bomb(res);
    case 'throttle':
      return sendJson(
        res,
        429,
        { message: 'Too many requests; retry after 3600 s' },
        { 'Retry-After': '3600' },
      );
    case 'slow-headers': {
      const wait = timers.after(timing.slowHeadersMs, () => sendJson(res, 200, {}));
      res.on('close', () => timers.clear(wait));
      return;
    }
  }
}
