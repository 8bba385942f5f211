import { realpathSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { generate } from 'selfsigned';
import { loadContract } from '../lib/contract/index.ts';
import { answerClientErrors, requestListener } from './http/adapter.ts';
import { findFault, unknownFaults, type Fault } from './faults/index.ts';
import { maskedTarget } from './key-in-query.ts';
import { createPipeline, preferredFaults, type Pipeline } from './pipeline.ts';
import { startPublishing } from './publishing.ts';
import { State, type PublishRequest } from './state/index.ts';
import { Throttle, type ThrottleOptions } from './throttle.ts';

export interface MockOptions {
  /** The address to listen on (default 127.0.0.1); `0.0.0.0` or `::` for every interface. */
  host?: string;
  /** HTTPS port; 0 picks a free one. */
  port?: number;
  /** Plain-HTTP port; 0 picks a free one. */
  httpPort?: number;
  seed?: number;
  /** A fixed start time for the clock; real time when absent. */
  now?: Date | string | number;
  /** Names from the fault catalogue (`npm run mock -- --list-faults`). */
  faults?: string[];
  /** Changes in the seeded log (20,000 by default). */
  changes?: number;
  /** Throttle each key so (`REAL_THROTTLE`: the real service's); no throttle when absent. */
  throttle?: ThrottleOptions;
  /** Honour `Prefer: faults=a,b` per request: off unless asked for. */
  control?: boolean;
  /** A directory served as static files under `/docs/` (what `npm run docs` writes). */
  docs?: string;
  /** Called once per request answered, with the request as it may be logged: no secrets. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Changes published a minute as time passes, seeded (none when absent or 0). */
  publishPerMinute?: number;
}

/** One request, as logged: no key or token, whether sent in a header or the query. */
export interface RequestLogEntry {
  /** When the request arrived, ISO 8601. */
  time: string;
  scheme: 'https' | 'http';
  method: string;
  /** Path and query as requested, with the value of any `apiKey` parameter masked. */
  path: string;
  status: number;
  /** From arrival to the last byte sent, in milliseconds. */
  ms: number;
  /** The faults in force for this request: switched on, and asked for with `Prefer`. */
  faults: string[];
}

export interface Mock {
  /** HTTPS base URL of the main service, e.g. `https://127.0.0.1:8443`. */
  url: string;
  /** Plain-HTTP base URL of the same service. */
  httpUrl: string;
  /** HTTPS base URL of the image service v2. */
  imagesUrl: string;
  /** The address it listens on; the URLs above name one a client can reach. */
  host: string;
  state: State;
  throttle: Throttle;
  /** The faults in force: switched at run time, per test. */
  readonly faults: readonly Fault[];
  setFaults(names: readonly string[]): void;
  /**
   * Adds changes to the feed at the clock's current time, or at the newest change's time if the
   * clock has not moved past it: publishing twice without `advance` puts both in one millisecond.
   */
  publish(requests: PublishRequest[]): ReturnType<State['publish']>;
  /** Moves the clock forward: the time of later changes, the `since` window and token expiry. */
  advance(ms: number): void;
  /** Back to the seeded state: data, clock and throttle as at start. */
  reset(): void;
  close(): Promise<void>;
}

const WILDCARDS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1' };
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Serves `/docs/…` from `root`: GET and HEAD only, never a file outside `root`. */
async function serveDocs(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  const reply = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
    const bytes = typeof body === 'string' ? Buffer.from(JSON.stringify({ message: body })) : body;
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      ...headers,
      'Content-Length': String(bytes.length),
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return reply(405, `Method ${req.method} is not allowed here`, { Allow: 'GET, HEAD' });
  const pathname = (req.url ?? '/').split('?', 1)[0]!;
  if (pathname === '/docs') return reply(301, 'See /docs/', { Location: '/docs/' });
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice('/docs/'.length));
  } catch {
    return reply(400, 'The path holds a malformed percent-escape');
  }
  if (relative.includes('\0') || relative.split(/[\\/]/).includes('..'))
    return reply(400, 'The path may not leave /docs/');
  if (relative === '' || relative.endsWith('/')) relative += 'index.html';
  try {
    // The real path too: a link inside the folder must not lead out of it.
    const file = await realpath(resolve(root, relative));
    if (!file.startsWith(root + sep) || !(await stat(file)).isFile()) throw new Error('not a file');
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    reply(200, await readFile(file), { 'Content-Type': type, 'Cache-Control': 'no-cache' });
  } catch {
    reply(404, 'No such page in the docs');
  }
}

/** Starts the bundled mock (on 127.0.0.1 unless `host` says otherwise): HTTPS with a certificate made now, and plain HTTP. */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = await loadContract();
  let faults: readonly Fault[] = (options.faults ?? []).map(findFault);
  const now = options.now === undefined ? undefined : new Date(options.now).getTime();
  const state = new State({ seed: options.seed ?? 1, now, changes: options.changes });
  const throttle = new Throttle(options.throttle);
  const control = options.control === true;
  const pipeline = createPipeline({ contract, state, faults: () => faults, throttle, control });
  const host = options.host ?? '127.0.0.1';
  const reachable = WILDCARDS[host] ?? host;
  const urlHost = isIP(reachable) === 6 ? `[${reachable}]` : reachable;
  const docsRoot = options.docs === undefined ? undefined : realpathSync(resolve(options.docs));
  const names = [...new Set(['127.0.0.1', 'localhost', reachable])];

  const pems = await generate([{ name: 'commonName', value: reachable }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 7 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: names.map((name) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name })),
      },
    ],
  });
  let httpsPort = 0;
  let httpsOrigin = '';
  let httpOrigin = '';
  // On every interface, a client may know the mock by any name: links and redirects follow the
  // Host it used, so a feed's next link leads back to where it came from.
  const byHost = (secure: boolean): Pipeline =>
    host in WILDCARDS
      ? (request) => {
          const named = request.headers.host;
          if (named === undefined || !HOST_HEADER.test(named)) return pipeline(request);
          const hostname = named.replace(/:\d+$/, '');
          const origin = `${secure ? 'https' : 'http'}://${named}`;
          const httpsNamed = secure ? origin : `https://${hostname}:${httpsPort}`;
          return pipeline({ ...request, origin, httpsOrigin: httpsNamed });
        }
      : pipeline;
  const observed = (secure: boolean) => {
    const listener = requestListener(byHost(secure), {
      secure,
      origin: () => (secure ? httpsOrigin : httpOrigin),
      httpsOrigin: () => httpsOrigin,
    });
    const { onRequest } = options;
    return (req: IncomingMessage, res: ServerResponse): void => {
      const target = req.url ?? '/';
      const isDocs = docsRoot !== undefined && /^\/docs(?:[/?]|$)/.test(target);
      if (onRequest) {
        const started = performance.now();
        const time = new Date().toISOString();
        const { prefer } = req.headers;
        const asked = control ? preferredFaults({ headers: { prefer: [prefer].flat().join(', ') } }) : [];
        const applied = isDocs
          ? []
          : [...faults.map((f) => f.name), ...(unknownFaults(asked).length > 0 ? [] : asked)];
        res.once('close', () =>
          onRequest({
            time,
            scheme: secure ? 'https' : 'http',
            method: req.method ?? '',
            path: maskedTarget(target),
            status: res.statusCode,
            ms: Math.round((performance.now() - started) * 10) / 10,
            faults: applied,
          }),
        );
      }
      if (isDocs) void serveDocs(docsRoot, req, res);
      else listener(req, res);
    };
  };
  const https = createHttpsServer({ key: pems.private, cert: pems.cert }, observed(true));
  const http = createHttpServer(observed(false));
  for (const server of [https, http]) {
    answerClientErrors(server);
    server.keepAliveTimeout = 5_000;
  }
  httpsPort = await listen(https, host, options.port ?? 0);
  httpsOrigin = `https://${urlHost}:${httpsPort}`;
  httpOrigin = `http://${urlHost}:${await listen(http, host, options.httpPort ?? 0).catch(async (error) => {
    await close(https);
    throw error;
  })}`;

  const stopPublishing = startPublishing(state, options.publishPerMinute ?? 0, options.seed ?? 1);
  return {
    url: httpsOrigin,
    httpUrl: httpOrigin,
    imagesUrl: `${httpsOrigin}${contract.basePath('images')}`,
    host,
    state,
    throttle,
    get faults() {
      return faults;
    },
    setFaults: (names) => {
      faults = names.map(findFault);
    },
    publish: (requests) => state.publish(requests),
    advance: (ms) => state.clock.advance(ms),
    reset: () => {
      state.reset();
      throttle.reset();
    },
    close: async () => {
      stopPublishing();
      await Promise.all([close(https), close(http)]);
    },
  };
}
