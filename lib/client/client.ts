import type { APIRequestContext } from '@playwright/test';
import { ALL_CHECKS, runChecks, SAFETY_CHECKS, type CheckFailure, type Exchange } from '../checks/index.ts';
import type { Contract, DocumentName, Operation } from '../contract/index.ts';
import { unknownFields } from './drift.ts';
import type { Observations } from './observations.ts';
import type { Pacer } from './pacer.ts';
import { curlLine, type Redactor } from './redact.ts';

/** Where the suite sends its requests. */
export interface Target {
  kind: 'mock' | 'live';
  baseUrl: string;
  httpBaseUrl?: string;
  imagesUrl?: string;
  key: string;
  /** The bundled mock's certificate is made at start, so it is not checked. */
  insecureTls: boolean;
}

/** How a request carries the API key. */
export type KeyPlacement = 'header' | 'query' | 'none' | { header?: string; query?: string };

export interface CallOptions {
  path?: Record<string, string>;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** A JSON value, or a string sent as it is. */
  body?: unknown;
  key?: KeyPlacement;
  /** A bearer token for `Authorization`. */
  token?: string;
  /** Send to the plain-HTTP base instead of the HTTPS one. */
  plainHttp?: boolean;
  /** `safety` for deliberately odd requests: only no 5xx, JSON, no secret echoed. */
  checks?: 'all' | 'safety';
  /** Follow redirects, re-attaching the key (AUTH-05). Default true. */
  followRedirects?: boolean;
  /** Wait out a 429 and retry (AUTH-06). Default true; false to see the 429 itself. */
  retryThrottled?: boolean;
}

export interface RawOptions extends Omit<CallOptions, 'path' | 'query' | 'plainHttp'> {
  method?: string;
  /** An absolute URL, used exactly as given, or a path below the base URL written as it is. */
  url: string;
  /** The base a relative `url` is below: the main service (default) or the image service. */
  base?: 'main' | 'images';
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  /** The body as bytes, for images. */
  bytes: Buffer;
  /** The final URL, without the key. */
  url: string;
  operation: string | undefined;
  /** Every URL that answered with a redirect on the way, without the key. */
  redirects: string[];
  curl: string;
}

/** A check failed: the message says what was expected, what came, and how to reproduce it. */
export class ApiCheckError extends Error {
  constructor(
    readonly failures: CheckFailure[],
    readonly curl: string,
    summary: string,
  ) {
    const lines = failures.map(
      (f) =>
        `${f.title} [${f.rules.join(', ') || 'contract'}]\n  Expected: ${f.expected}\n  Received: ${f.received}`,
    );
    super(`${lines.join('\n')}\n  ${summary}\nReproduce with:\n  ${curl}`);
    this.name = 'ApiCheckError';
  }
}

const MAX_REDIRECTS = 5;
const MAX_THROTTLE_RETRIES = 3;
const MAX_RETRY_AFTER_SECONDS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one spec-aware client: builds requests from the contract, paces them, follows redirects with
 * the key, waits out throttling, runs every check on every response, and records coverage and drift.
 */
export class ApiClient {
  constructor(
    private readonly deps: {
      request: APIRequestContext;
      contract: Contract;
      target: Target;
      pacer: Pacer;
      redactor: Redactor;
      observations: Observations;
    },
  ) {}

  /** Calls an operation by its operationId. */
  async call(operationId: string, options: CallOptions = {}): Promise<ApiResponse> {
    const { contract } = this.deps;
    const op = contract.operation(operationId);
    let path = op.path;
    for (const param of op.segments.filter((s) => s.param)) {
      const value = options.path?.[param.param!];
      if (value === undefined) throw new Error(`${operationId} needs path parameter ${param.param}`);
      path = path.replace(`{${param.param}}`, encodeURIComponent(value));
    }
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) query.append(name, value);
    const base = this.base(op.document, options.plainHttp === true);
    const search = query.toString();
    return this.send(op.method.toUpperCase(), `${base}${path}${search ? `?${search}` : ''}`, options);
  }

  /** Sends a request as written (a next link, a malformed path), still matched and checked. */
  async raw(options: RawOptions): Promise<ApiResponse> {
    const base = options.base === 'images' ? this.base('images', false) : this.deps.target.baseUrl;
    const url = /^https?:\/\//.test(options.url) ? options.url : `${base}${options.url}`;
    return this.send(options.method ?? 'GET', url, options);
  }

  private base(document: DocumentName, plainHttp: boolean): string {
    const { target } = this.deps;
    if (document === 'images') {
      if (!target.imagesUrl) throw new Error('No image service base URL is configured (CLM_IMAGE_BASE_URL)');
      return target.imagesUrl;
    }
    if (!plainHttp) return target.baseUrl;
    if (!target.httpBaseUrl) throw new Error('No plain-HTTP base URL is configured (CLM_HTTP_BASE_URL)');
    return target.httpBaseUrl;
  }

  /** The operation a URL names, if the contract has one. */
  private operationOf(method: string, url: string): Operation | undefined {
    const { target, contract } = this.deps;
    const bases: [DocumentName, string | undefined][] = [
      ['images', target.imagesUrl],
      ['main', target.baseUrl],
      ['main', target.httpBaseUrl],
    ];
    for (const [document, base] of bases) {
      if (!base || !url.startsWith(`${base}/`)) continue;
      try {
        const found = contract.match(document, method, url.slice(base.length).split('?')[0]!);
        return 'operation' in found ? found.operation : undefined;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  private async send(method: string, firstUrl: string, options: CallOptions): Promise<ApiResponse> {
    const { request, contract, target, pacer, observations } = this.deps;
    const placement = options.key ?? 'header';
    const headerKey =
      placement === 'header' ? target.key : typeof placement === 'object' ? placement.header : undefined;
    const queryKey =
      placement === 'query' ? target.key : typeof placement === 'object' ? placement.query : undefined;
    const headers: Record<string, string> = { ...options.headers };
    if (headerKey !== undefined) headers['X-Api-Key'] = headerKey;
    if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    if (body !== undefined && options.body !== undefined && typeof options.body !== 'string')
      headers['Content-Type'] ??= 'application/json';
    // Keys and tokens sent must never come back; short fuzzed values would match by chance.
    const sent = [headerKey, queryKey, options.token].filter((s): s is string => !!s && s.length >= 8);
    const redactor = this.deps.redactor.with(sent.map((value) => ({ value, name: 'SENT_SECRET' })));
    const checks = options.checks === 'safety' ? SAFETY_CHECKS : ALL_CHECKS;

    let url = firstUrl;
    const redirects: string[] = [];
    let throttled = 0;
    let networkRetried = false;
    for (;;) {
      // The key in the query goes as a separate parameter: Playwright's reports show the URL string.
      const params = queryKey !== undefined ? { apiKey: queryKey } : undefined;
      const shownUrl =
        queryKey !== undefined
          ? `${url}${url.includes('?') ? '&' : '?'}apiKey=${encodeURIComponent(queryKey)}`
          : url;
      const curl = curlLine({ method, url: shownUrl, headers, body, insecure: target.insecureTls }, redactor);
      await pacer.wait();
      observations.requests++;
      let response;
      try {
        response = await request.fetch(url, {
          method,
          headers,
          data: body,
          params,
          maxRedirects: 0,
          ignoreHTTPSErrors: target.insecureTls,
          failOnStatusCode: false,
          timeout: 30_000,
        });
      } catch (error) {
        const reason = redactor.text(String((error as Error).message).split('\n')[0] ?? '');
        if (target.kind === 'live' && !networkRetried) {
          networkRetried = true;
          observations.retries.push({ reason: `network: ${reason}`, url: redactor.text(url) });
          continue;
        }
        throw new Error(`${method} ${redactor.text(url)} failed: ${reason}\nReproduce with:\n  ${curl}`);
      }
      const status = response.status();
      const responseHeaders = response.headers();
      const bytes = await response.body();
      const text = bytes.toString('utf8');
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const operation = this.operationOf(method, url);
      const exchange: Exchange = {
        operation,
        method,
        url: redactor.text(url),
        requestHeaders: headers,
        status,
        responseHeaders,
        text,
        json,
      };
      const isRedirect = status >= 300 && status < 400 && responseHeaders.location !== undefined;
      if (operation && !isRedirect) observations.calls.push({ operation: operation.id, status });
      observations.exchanges.push({
        method,
        url: redactor.text(url),
        status,
        curl,
        body: redactor.text(text.slice(0, 2_000)),
      });
      if (observations.exchanges.length > 20) observations.exchanges.shift();

      const failures = runChecks(checks, exchange, { contract, secrets: redactor.values() });
      if (failures.length > 0)
        throw new ApiCheckError(failures, curl, `${method} ${redactor.text(url)} -> ${status}`);
      if (operation && json !== undefined && status < 500)
        this.recordDrift(operation, status, responseHeaders['content-type'] ?? '', json);

      if (status === 429 && options.retryThrottled !== false && throttled < MAX_THROTTLE_RETRIES) {
        throttled++;
        const retryAfter = Number(responseHeaders['retry-after']);
        const seconds =
          Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(retryAfter, MAX_RETRY_AFTER_SECONDS) : 1;
        observations.retries.push({
          reason: `429, Retry-After: ${responseHeaders['retry-after'] ?? '(none)'}`,
          url: redactor.text(url),
        });
        await sleep(seconds * 1000);
        continue;
      }
      if (isRedirect && options.followRedirects !== false && redirects.length < MAX_REDIRECTS) {
        redirects.push(redactor.text(url));
        url = new URL(responseHeaders.location!, url).toString();
        continue;
      }
      return {
        status,
        headers: responseHeaders,
        text,
        bytes,
        json,
        url: redactor.text(url),
        operation: operation?.id,
        redirects,
        curl,
      };
    }
  }

  private recordDrift(operation: Operation, status: number, contentType: string, json: unknown): void {
    const found = this.deps.contract.response(operation.id, status);
    const media = found?.response.content?.[contentType.split(';')[0]!.trim()];
    for (const field of unknownFields(media?.schema, json))
      this.deps.observations.drift.push({ operation: operation.id, status, field });
  }
}
