import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  certificate as certificateFor,
  closeServer,
  listen as listenOn,
} from '../../../mock/http/servers.ts';
import { withoutKey as withoutKeyInQuery } from '../../../mock/key-in-query.ts';

/** Test servers listen here only. */
export const HOST = '127.0.0.1';

export interface Pems {
  key: string;
  cert: string;
}

/** A self-signed certificate for the given names (IP addresses and DNS names), as the mock makes one. */
export const certificate = (names: string[] = [HOST, 'localhost']): Promise<Pems> => certificateFor(names);

export const listen = (server: Server, port = 0): Promise<number> => listenOn(server, HOST, port);

export { closeServer };

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(bytes.length),
    ...headers,
  });
  res.end(bytes);
}

/** Reads and drops a request body, at most `limit` bytes are waited for; then calls `done`. */
export function drain(req: IncomingMessage, done: () => void, limit = 1024 * 1024): void {
  let size = 0;
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    done();
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) finish();
  });
  req.on('end', finish);
  req.on('error', () => req.socket.destroy());
}

/** The path and query without any `apiKey` parameter, as the mock leaves it out (`/p?a=1` or `/p`). */
export function withoutKey(pathAndQuery: string): string {
  const at = pathAndQuery.indexOf('?');
  if (at === -1) return pathAndQuery;
  return pathAndQuery.slice(0, at) + withoutKeyInQuery(pathAndQuery.slice(at + 1));
}

/** Timers that end with the server: every one is cleared on close, so nothing outlives a test. */
export class Timers {
  private readonly live = new Set<NodeJS.Timeout>();

  after(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.live.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.live.add(timer);
    return timer;
  }

  every(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setInterval(run, ms);
    timer.unref();
    this.live.add(timer);
    return timer;
  }

  clear(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    clearInterval(timer);
    this.live.delete(timer);
  }

  clearAll(): void {
    for (const timer of this.live) this.clear(timer);
  }
}

/** A request-target in absolute-form (RFC 9112 §3.2.2) as its origin-form: a server names its own origin. */
export function originForm(target: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  const url = new URL(target);
  return `${url.pathname}${url.search}`;
}
