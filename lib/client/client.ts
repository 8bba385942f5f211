import { ALL_CHECKS, runChecks, SAFETY_CHECKS, type Exchange } from '../checks/index.ts';
import type { Contract, DocumentName, Operation } from '../contract/index.ts';
import { driftOf } from './drift.ts';
import type { Observations } from './observations.ts';
import { RunStopped } from '../run/ledger.ts';
import type { RunLedger } from '../run/ledger-server.ts';
import { curlLine, type Redactor } from './redact.ts';
import { sendOnWire, TransportError, type WireResponse } from './transport.ts';
import { mayCarrySecrets, secretsOf, withQueryKey } from './credentials.ts';
import {
  ApiCheckError,
  type ApiResponse,
  type CallOptions,
  type ClientLimits,
  type RawOptions,
  type Target,
} from './types.ts';

export { ApiCheckError } from './types.ts';
export type { ApiResponse, CallOptions, ClientLimits, KeyPlacement, RawOptions, Target } from './types.ts';

const MAX_REDIRECTS = 5;
const MAX_THROTTLE_RETRIES = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one spec-aware client: builds requests from the contract, sends them within the run's budget,
 * pace and deadline, follows redirects (credentials only to their own origins), waits out
 * throttling, runs every check on every response, and records coverage and drift.
 */
export class ApiClient {
  constructor(
    private readonly deps: {
      contract: Contract;
      target: Target;
      ledger: RunLedger;
      limits: ClientLimits;
      redactor: Redactor;
      observations: Observations;
      /** Ends the current test as not run (the run's budget, deadline or the service stopped it). */
      stop: (reason: string) => never;
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
    const { target, ledger } = this.deps;
    const secrets = secretsOf(options, this.deps.target.key);
    const body: string | undefined =
      options.body === undefined || typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
    // Keys and tokens sent must never come back; short fuzzed values would match by chance.
    const sent = [secrets.headerKey, secrets.queryKey, secrets.token].filter(
      (s): s is string => !!s && s.length >= 8,
    );
    const redactor = this.deps.redactor.with(sent.map((value) => ({ value, name: 'SENT_SECRET' })));

    let url = firstUrl;
    let carry = true;
    const redirects: string[] = [];
    let throttled = 0;
    let networkRetried = false;
    for (;;) {
      const headers: Record<string, string> = { ...options.headers };
      if (target.preferFaults) headers.Prefer = `faults=${target.preferFaults}`;
      if (carry && secrets.headerKey !== undefined) headers['X-Api-Key'] = secrets.headerKey;
      if (carry && secrets.token !== undefined) headers.Authorization = `Bearer ${secrets.token}`;
      if (body !== undefined && typeof options.body !== 'string')
        headers['Content-Type'] ??= 'application/json';
      const wireUrl = carry ? withQueryKey(url, secrets.queryKey) : url;
      const curl = curlLine({ method, url: wireUrl, headers, body, insecure: target.insecureTls }, redactor);
      let wire: WireResponse;
      try {
        wire = await this.exchange({ method, url: wireUrl, headers, body });
      } catch (error) {
        if (error instanceof RunStopped) this.deps.stop(error.reason);
        if (!(error instanceof TransportError)) throw error;
        const what = `${method} ${redactor.text(url)}: ${error.message}`;
        await ledger.transportFailure(what);
        this.deps.observations.retries.push({
          reason: `no answer: ${error.message}`,
          url: redactor.text(url),
        });
        if (target.kind === 'live' && !networkRetried) {
          networkRetried = true;
          continue;
        }
        // Live, no answer is no verdict: the test is not run, and enough of them end the run.
        if (target.kind === 'live') this.deps.stop(`the service did not answer ${what}`);
        throw new Error(`${what}\nReproduce with:\n  ${curl}`);
      }
      void ledger.answered();
      const response = this.inspect(method, url, headers, wire, {
        options,
        redactor,
        curl,
        redirects,
        carry,
      });
      const { status } = response;

      if (status === 429 && options.retryThrottled !== false) {
        const header = response.headers['retry-after'];
        const seconds = Number.isFinite(Number(header)) && Number(header) >= 0 ? Number(header) : 1;
        if (seconds > this.deps.limits.maxRetryAfter) {
          const reason = `the service asked to wait ${seconds} s (429, Retry-After), more than CLM_MAX_RETRY_AFTER=${this.deps.limits.maxRetryAfter}`;
          await ledger.stop(reason);
          this.deps.stop(reason);
        }
        if (throttled < MAX_THROTTLE_RETRIES) {
          throttled++;
          this.deps.observations.retries.push({
            reason: `429, Retry-After: ${header ?? '(none)'}`,
            url: redactor.text(url),
          });
          // The allowance is the key's, so the whole run waits, not this worker alone.
          await ledger.pause(seconds);
          continue;
        }
        if (target.kind === 'live')
          this.deps.stop(`still throttled (429) after ${MAX_THROTTLE_RETRIES} waits: ${redactor.text(url)}`);
      }
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined && options.followRedirects !== false) {
        if (redirects.length >= MAX_REDIRECTS)
          throw new Error(
            `Too many redirects: more than ${MAX_REDIRECTS}, the last to ${redactor.text(location)}\n` +
              `Redirected from: ${redirects.join(' -> ')}\nReproduce with:\n  ${curl}`,
          );
        redirects.push(redactor.text(url));
        const next = new URL(location, url);
        carry &&= mayCarrySecrets(url, next, this.deps.target);
        url = next.toString();
        continue;
      }
      return response;
    }
  }

  /** Takes a slot of the run's ledger, waits for it, and sends within the request's bounds. */
  private async exchange(request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
  }): Promise<WireResponse> {
    const { ledger, limits, target, observations } = this.deps;
    const grant = await ledger.take();
    if (!grant.ok) throw new RunStopped(grant.reason);
    if (grant.delayMs > 0) await sleep(grant.delayMs);
    observations.requests++;
    const left = grant.deadline === undefined ? Infinity : grant.deadline - Date.now();
    try {
      return await sendOnWire({
        ...request,
        insecureTls: target.insecureTls,
        timeoutMs: Math.max(1, Math.min(limits.requestTimeoutMs, left)),
        maxBytes: limits.maxBodyBytes,
      });
    } catch (error) {
      if (grant.deadline !== undefined && Date.now() >= grant.deadline) {
        const reason = 'deadline reached (CLM_RUN_TIMEOUT): the run ends here, what ran is reported';
        await ledger.stop(reason);
        throw new RunStopped(reason);
      }
      throw error;
    }
  }

  /** Runs every check on one answer, records coverage and drift, and throws on a failed check. */
  private inspect(
    method: string,
    url: string,
    requestHeaders: Record<string, string>,
    wire: WireResponse,
    context: { options: CallOptions; redactor: Redactor; curl: string; redirects: string[]; carry: boolean },
  ): ApiResponse {
    const { contract, observations } = this.deps;
    const { options, redactor, curl } = context;
    const { status, headers, bytes } = wire;
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const operation = this.operationOf(method, url);
    const shownUrl = redactor.text(url);
    const exchange: Exchange = {
      operation,
      method,
      url: shownUrl,
      requestHeaders,
      status,
      responseHeaders: headers,
      text,
      json,
    };
    const isRedirect = status >= 300 && status < 400 && headers.location !== undefined;
    if (operation && !isRedirect) observations.calls.push({ operation: operation.id, status });
    observations.exchanges.push({
      method,
      url: shownUrl,
      status,
      curl,
      body: redactor.text(text.slice(0, 2_000)),
    });
    if (observations.exchanges.length > 20) observations.exchanges.shift();

    const checks = options.checks === 'safety' ? SAFETY_CHECKS : ALL_CHECKS;
    const failures = runChecks(checks, exchange, {
      contract,
      secrets: redactor.values(),
      strict: this.deps.target.kind === 'mock',
    });
    if (failures.length > 0) {
      for (const f of failures)
        observations.findings.push({ check: f.check, title: f.title, rules: f.rules });
      throw new ApiCheckError(failures, curl, `${method} ${shownUrl} -> ${status}`);
    }
    if (operation && json !== undefined && status < 500)
      observations.drift.push(...driftOf(contract, operation, status, headers['content-type'] ?? '', json));
    return {
      status,
      headers,
      text,
      bytes,
      json,
      url: shownUrl,
      operation: operation?.id,
      redirects: context.redirects,
      secretsDropped: !context.carry,
      curl,
    };
  }
}
