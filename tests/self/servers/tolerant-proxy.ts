import { randomUUID } from 'node:crypto';
import {
  createServer as createHttpServer,
  request as httpRequest,
  Agent as HttpAgent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { gzipSync } from 'node:zlib';
import { hasKeyParameter, maskedTarget } from '../../../mock/key-in-query.ts';
import { certificate, closeServer, HOST, listen, originForm, sendJson, withoutKey } from './common.ts';
import { rewriteJson, transformAsString, type JsonRewrite } from './json-variations.ts';

export const VARIATIONS = [
  'extra-fields',
  'reordered-keys',
  'content-type-params',
  'extra-headers',
  'gzip',
  'http-refused',
  'v1-retired',
  'v1-retired-404',
  'seconds-timestamps',
  'debug-transform-string',
] as const;
export type Variation = (typeof VARIATIONS)[number];

/** All on, v1 paths answering 410 (`v1-retired-404` is the alternative, so it is not a default). */
export const DEFAULT_VARIATIONS: readonly Variation[] = VARIATIONS.filter((v) => v !== 'v1-retired-404');

/** The deprecated v1 paths. */
const V1 = /^\/(content\/items\/v1\/|content\/notifications\/v1\/items$|site\/v1\/pages(\/|$))/;
const JSON_TYPE = /^application\/([a-z.+-]+\+)?json\b/i;
/** Headers that belong to one connection, never forwarded. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'proxy-connection'];
const UPSTREAM_TIMEOUT_MS = 30_000;
const MAX_UPSTREAM_BYTES = 64 * 1024 * 1024;

export interface ProxyOptions {
  /** The bundled mock's URLs (`createMock` returns them). */
  upstream: { url: string; httpUrl: string; imagesUrl: string };
  variations?: readonly Variation[];
}

export interface ProxyRequest {
  /** When it arrived, in ms since the epoch. */
  time: number;
  method: string;
  /** Path and query as received, an `apiKey` value replaced by `REDACTED`. */
  url: string;
  /** A key came with it, in `X-Api-Key` or `apiKey`. */
  hadKey: boolean;
}

export interface TolerantProxy {
  baseUrl: string;
  httpBaseUrl: string;
  /** The image service through the proxy: the mock's path prefix on the proxy's origin. */
  imagesUrl: string;
  variations: readonly Variation[];
  requests: { readonly count: number; log: ProxyRequest[] };
  close(): Promise<void>;
}

function redacted(url: string): string {
  return maskedTarget(url, 'REDACTED');
}

function hasKey(req: IncomingMessage): boolean {
  return req.headers['x-api-key'] !== undefined || hasKeyParameter(req.url ?? '');
}

/** A body that is not JSON after all (a fault of the mock) passes unchanged. */
function parse(body: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

function acceptsGzip(headers: IncomingHttpHeaders): boolean {
  const accepted = String(headers['accept-encoding'] ?? '');
  return accepted.split(',').some((part) => /^\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*$)[\d.]+\s*)?$/i.test(part));
}

/** What the proxy's handlers share: the variations on, the mock's origins, its agents and its own. */
interface Proxy {
  on: Set<Variation>;
  upstream: { https: string; http: string; images: URL };
  imagesPath: string;
  agents: { https: HttpsAgent; http: HttpAgent };
  self: { https: string; http: string };
}

/** A request sent on to the mock (the images path to its image service), its answer buffered. */
function forward(proxy: Proxy, req: IncomingMessage, res: ServerResponse, secure: boolean): void {
  const { upstream } = proxy;
  const target = originForm(req.url ?? '/');
  const path = target.split('?')[0]!;
  const base = !secure
    ? upstream.http
    : path.startsWith(`${proxy.imagesPath}/`)
      ? upstream.images.origin
      : upstream.https;
  const headers: OutgoingHttpHeaders = { ...req.headers };
  // The proxy compresses, so the upstream body comes plain.
  for (const name of ['host', 'accept-encoding', ...HOP_BY_HOP]) delete headers[name];
  const send = base.startsWith('https:') ? httpsRequest : httpRequest;
  const outgoing = send(
    `${base}${target}`,
    {
      method: req.method,
      headers,
      agent: base.startsWith('https:') ? proxy.agents.https : proxy.agents.http,
      timeout: UPSTREAM_TIMEOUT_MS,
    },
    (answer) => {
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // The mock's answers are small; anything this big is a defect, cut rather than buffered.
        if (size <= MAX_UPSTREAM_BYTES) return void chunks.push(chunk);
        answer.destroy();
        res.destroy();
      });
      answer.on('error', () => res.destroy());
      answer.on('end', () => respond(proxy, req, res, secure, answer, Buffer.concat(chunks)));
    },
  );
  outgoing.on('timeout', () => outgoing.destroy(new Error('upstream timeout')));
  outgoing.on('error', () => {
    if (!res.headersSent) sendJson(res, 502, { message: 'The upstream mock did not answer' });
    else res.destroy();
  });
  req.pipe(outgoing);
}

/** The mock's answer, varied: v1 retired, JSON rewritten, headers added, the body compressed. */
function respond(
  proxy: Proxy,
  req: IncomingMessage,
  res: ServerResponse,
  secure: boolean,
  answer: IncomingMessage,
  raw: Buffer,
): void {
  const { on, upstream, self, imagesPath } = proxy;
  const target = originForm(req.url ?? '/');
  const path = target.split('?')[0]!;
  const origin = secure ? self.https : self.http;
  let status = answer.statusCode ?? 502;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined && !HOP_BY_HOP.includes(name) && name !== 'content-length' && name !== 'date')
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const rewrite: JsonRewrite = {
    origins: [
      [upstream.https, self.https],
      [upstream.images.origin, self.https],
      [upstream.http, self.http],
    ],
    extraFields: on.has('extra-fields'),
    reorderKeys: on.has('reordered-keys'),
    secondsTimestamps: on.has('seconds-timestamps'),
  };
  if (headers.location)
    headers.location = String(rewriteJson(headers.location, { ...rewrite, secondsTimestamps: false }));

  let body: Buffer = raw;
  const retired = on.has('v1-retired-404') ? 404 : on.has('v1-retired') ? 410 : undefined;
  // Only a valid key learns that the endpoint is gone: the mock's 403 for no key or a bad one stands.
  if (retired && V1.test(path) && status !== 403) {
    status = retired;
    delete headers.location;
    headers['content-type'] = 'application/json';
    body = Buffer.from(JSON.stringify({ requestUrl: origin + withoutKey(target), message: 'gone' }));
  }
  const json = JSON_TYPE.test(headers['content-type'] ?? '');
  const parsed = json && body.length > 0 ? parse(body) : undefined;
  if (parsed !== undefined) {
    let value = parsed.value;
    if (on.has('debug-transform-string') && path.startsWith(`${imagesPath}/images/debug/`))
      value = transformAsString(value, origin + imagesPath);
    body = Buffer.from(JSON.stringify(rewriteJson(value, rewrite)));
    if (on.has('content-type-params')) headers['content-type'] = 'application/json; charset=utf-8';
  }
  body = finish(on, req, status, headers, body);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Headers the interface allows added, the body gzipped when the client accepts it, its length set. */
function finish(
  on: Set<Variation>,
  req: IncomingMessage,
  status: number,
  headers: Record<string, string>,
  plain: Buffer,
): Buffer {
  let body = plain;
  if (on.has('extra-headers')) {
    headers['x-request-id'] = randomUUID();
    headers['cache-control'] = status === 200 ? 'max-age=60, public' : 'no-store';
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  }
  if (on.has('gzip') && body.length > 0 && acceptsGzip(req.headers)) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
    if (!/accept-encoding/i.test(headers.vary ?? ''))
      headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  }
  headers['content-length'] = String(body.length);
  return body;
}

/**
 * A proxy in front of the bundled mock that changes only what the interface leaves open: the
 * suite must pass through it as it passes against the mock itself.
 */
export async function startTolerantProxy(options: ProxyOptions): Promise<TolerantProxy> {
  const images = new URL(options.upstream.imagesUrl);
  const proxy: Proxy = {
    on: new Set(options.variations ?? DEFAULT_VARIATIONS),
    upstream: {
      https: new URL(options.upstream.url).origin,
      http: new URL(options.upstream.httpUrl).origin,
      images,
    },
    imagesPath: images.pathname.replace(/\/$/, ''),
    agents: {
      https: new HttpsAgent({ keepAlive: true, rejectUnauthorized: false }),
      http: new HttpAgent({ keepAlive: true }),
    },
    self: { https: '', http: '' },
  };
  const { on, agents, self, imagesPath } = proxy;
  const log: ProxyRequest[] = [];

  const handler = (secure: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    log.push({
      time: Date.now(),
      method: req.method ?? 'GET',
      url: redacted(req.url ?? '/'),
      hadKey: hasKey(req),
    });
    if (!secure && on.has('http-refused')) {
      req.resume();
      return sendJson(
        res,
        403,
        { message: 'HTTPS required' },
        { 'Content-Type': 'application/json; charset=utf-8' },
      );
    }
    forward(proxy, req, res, secure);
  };

  const https = createHttpsServer(await certificate(), handler(true));
  const http = createHttpServer(handler(false));
  const servers: Server[] = [https, http];
  for (const server of servers) server.keepAliveTimeout = 2_000;
  const [httpsPort, httpPort] = await Promise.all(servers.map((server) => listen(server)));
  self.https = `https://${HOST}:${httpsPort}`;
  self.http = `http://${HOST}:${httpPort}`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: self.https,
    httpBaseUrl: self.http,
    imagesUrl: self.https + imagesPath,
    variations: [...on],
    requests: {
      get count() {
        return log.length;
      },
      log,
    },
    close: () =>
      (closing ??= Promise.all(servers.map(closeServer)).then(() => {
        agents.https.destroy();
        agents.http.destroy();
      })),
  };
}
