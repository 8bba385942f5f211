import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { certificate, closeServer, drain, HOST, listen, originForm, sendJson, Timers } from './common.ts';
import { DEFAULT_TIMING, misbehave, type HostileKind, type HostileTiming } from './hostile-kinds.ts';

export { HOSTILE_KINDS, type HostileKind, type HostileTiming } from './hostile-kinds.ts';

/** The image service's path prefix, as in openapi/images.yaml. */
export const IMAGES_PATH = '/__origami/service/image/v2';

/**
 * Which kind each path meets, first match wins; every kind appears. The suite's client stops a live
 * run at the first request that gets no answer (reset, stall, drip, huge, bomb, slow headers) or a
 * Retry-After above its ceiling, so the redirect kinds, all answered, sit on the operations the
 * suite calls first (tests/conformance/content.spec.ts runs first): one run meets all of them and
 * then one stopping kind. To meet each stopping kind, run once per kind with `mode`.
 */
export const HOSTILE_ROUTES: readonly { path: RegExp; kind: HostileKind }[] = [
  { path: /^\/content\/notifications\/v1\/items$/, kind: 'redirect-with-key' },
  { path: /^\/content\/notifications$/, kind: 'stall' },
  { path: /^\/content\/search\/v1$/, kind: 'redirect-loop' },
  { path: /^\/content\/items\/v1\/[^/]+$/, kind: 'huge' },
  { path: /^\/content\/[^/]+$/, kind: 'redirect-foreign' },
  { path: /^\/enrichedcontent\/[^/]+$/, kind: 'redirect-localhost' },
  { path: new RegExp(`^${IMAGES_PATH}/`), kind: 'redirect-downgrade' },
  { path: /^\/trial-exclusions\/ip-addresses$/, kind: 'redirect-downgrade' },
  { path: /^\/licence\/[^/]+$/, kind: 'reset' },
  { path: /^\/users\/[^/]+\/profile\/full$/, kind: 'throttle' },
  { path: /^\/site\/v1\/pages$/, kind: 'gzip-bomb' },
  { path: /^\/site\/v1\/pages\/[^/]+\/main-content$/, kind: 'slow-headers' },
  { path: /^\/site\/v1\/pages\/[^/]+(\/skyline-content)?$/, kind: 'drip' },
];

/** The kind a path meets by default; undefined means a plain 404. */
export function kindFor(path: string): HostileKind | undefined {
  return HOSTILE_ROUTES.find((route) => route.path.test(path))?.kind;
}

/** One path of each operation of openapi/openapi.yaml and images.yaml, ids made up. */
export const OPERATION_PATHS: readonly string[] = [
  '/content/notifications',
  '/trial-exclusions/ip-addresses',
  '/licence/00000000-0000-4000-8000-000000000002',
  '/users/00000000-0000-4000-8000-000000000001/profile/full',
  '/site/v1/pages/p1/main-content',
  '/content/c1',
  '/enrichedcontent/c1',
  '/content/search/v1',
  '/content/items/v1/c1',
  '/content/notifications/v1/items',
  '/site/v1/pages',
  '/site/v1/pages/p1',
  '/site/v1/pages/p1/skyline-content',
  `${IMAGES_PATH}/images/raw/ftcms%3Aimage`,
  `${IMAGES_PATH}/images/debug/ftcms%3Aimage`,
  `${IMAGES_PATH}/images/metadata/ftcms%3Aimage`,
];

/** An operation's path that meets this kind by default. */
export function pathFor(kind: HostileKind): string {
  const path = OPERATION_PATHS.find((p) => kindFor(p) === kind);
  if (path === undefined) throw new Error(`No operation meets ${kind}`);
  return path;
}

export interface HostileOptions {
  /** One kind on every path of the main server, instead of `HOSTILE_ROUTES`. */
  mode?: HostileKind;
  /**
   * The name the main server's certificate is made for (default: 127.0.0.1 and localhost). A name
   * such as 'example.invalid' fails verification even for a client that trusts the certificate.
   * Either way the certificate is self-signed: with CLM_INSECURE_TLS=false every request fails TLS.
   */
  certFor?: string;
  /** Shorter waits for self-tests (defaults: a stall is cut at 120 s, drip 500 ms, slow headers 10 s). */
  timing?: Partial<HostileTiming>;
}

export interface HostileRequest {
  server: 'main' | 'http' | 'foreign';
  origin: string;
  method: string;
  /** Path and query exactly as received. */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface Hostile {
  /** https://127.0.0.1:P */
  baseUrl: string;
  /** http://127.0.0.1:H: answers 200 `{}` to anything (the target of a downgrade). */
  httpBaseUrl: string;
  /** https://127.0.0.1:Q, another origin: answers 200 `{}` to anything. */
  foreignUrl: string;
  /** https://localhost:P: the main server under another name, so another origin. */
  localhostUrl: string;
  /** The image service's base on the main server. */
  imagesUrl: string;
  /** The main server's certificate (PEM), for a client that trusts it explicitly. */
  certificate: string;
  /** Every request any of the three servers received, in order. */
  requests: HostileRequest[];
  /** Forgets the logged requests. */
  reset(): void;
  close(): Promise<void>;
}

/** A service that misbehaves in every way a live service can, on 127.0.0.1 only. */
export async function startHostile(options: HostileOptions = {}): Promise<Hostile> {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const timers = new Timers();
  const requests: HostileRequest[] = [];
  const [mainPems, foreignPems] = await Promise.all([
    certificate(options.certFor ? [options.certFor] : [HOST, 'localhost']),
    certificate([HOST]),
  ]);
  const urls = { base: '', http: '', foreign: '', localhost: '' };

  const log = (server: HostileRequest['server'], scheme: string, req: IncomingMessage) =>
    requests.push({
      server,
      origin: `${scheme}://${req.headers.host ?? ''}`,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: { ...req.headers },
    });

  const main = createHttpsServer(mainPems, (req, res) => {
    log('main', 'https', req);
    drain(req, () => {
      const path = originForm(req.url ?? '/').split('?')[0]!;
      const kind = options.mode ?? kindFor(path);
      if (!kind) return sendJson(res, 404, { message: 'No such endpoint' });
      const byName = req.headers.host?.startsWith('localhost:') ?? false;
      misbehave(kind, {
        req,
        res,
        timers,
        timing,
        origins: {
          self: byName ? urls.localhost : urls.base,
          otherName: byName ? urls.base : urls.localhost,
          foreign: urls.foreign,
          http: urls.http,
        },
      });
    });
  });
  const http = createHttpServer((req, res) => {
    log('http', 'http', req);
    drain(req, () => sendJson(res, 200, {}));
  });
  const foreign = createHttpsServer(foreignPems, (req, res) => {
    log('foreign', 'https', req);
    drain(req, () => sendJson(res, 200, {}));
  });
  const servers: Server[] = [main, http, foreign];
  for (const server of servers) server.keepAliveTimeout = 2_000;

  const [mainPort, httpPort, foreignPort] = await Promise.all(servers.map((server) => listen(server)));
  urls.base = `https://${HOST}:${mainPort}`;
  urls.localhost = `https://localhost:${mainPort}`;
  urls.http = `http://${HOST}:${httpPort}`;
  urls.foreign = `https://${HOST}:${foreignPort}`;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: urls.base,
    httpBaseUrl: urls.http,
    foreignUrl: urls.foreign,
    localhostUrl: urls.localhost,
    imagesUrl: urls.base + IMAGES_PATH,
    certificate: mainPems.cert,
    requests,
    reset: () => void requests.splice(0),
    // Idempotent: a test may close early and its teardown again.
    close: () => {
      timers.clearAll();
      return (closing ??= Promise.all(servers.map(closeServer)).then(() => undefined));
    },
  };
}

/** An https URL on 127.0.0.1 where nothing listens: a connection to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createNetServer();
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve((server.address() as AddressInfo).port));
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `https://${HOST}:${port}`;
}

/**
 * The environment of a live run against a hostile service: every operation configured, so no test
 * is skipped for want of data. Ids are well-formed and arbitrary: no answer depends on them.
 */
export function hostileEnv(
  hostile: Hostile,
  secrets: { key: string; token: string },
): Record<string, string> {
  return {
    CLM_BASE_URL: hostile.baseUrl,
    CLM_HTTP_BASE_URL: hostile.httpBaseUrl,
    CLM_IMAGE_BASE_URL: hostile.imagesUrl,
    CLM_IMAGE_URI: 'ftcms:7348edd8-0403-11de-845b-000077b07658',
    CLM_API_KEY: secrets.key,
    CLM_USER_ID: '00000000-0000-4000-8000-000000000001',
    CLM_USER_TOKEN: secrets.token,
    CLM_LICENCE_ID: '00000000-0000-4000-8000-000000000002',
    CLM_PAGE_ID: '00000000-0000-4000-8000-000000000003',
    CLM_CONTENT_ID: '00000000-0000-4000-8000-000000000004',
    CLM_INSECURE_TLS: 'true',
  };
}
