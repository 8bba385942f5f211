import { says } from '../claims.ts';
import type { DocumentName } from '../contract/index.ts';
import { inspect, keepAsEvidence } from './inspect.ts';
import { recordGone } from './observations.ts';
import { RunStopped } from '../run/ledger.ts';
import { sendOnWire, TransportError, type WireRequest, type WireResponse } from './transport.ts';
import { prepareCall, wireRequest, type Call } from './call.ts';
import { linkDestination, mayCarrySecrets } from './credentials.ts';
import { withImageSource } from './target.ts';
import { Outages, type ClientDeps } from './outage.ts';
import { undecodable, type ApiResponse, type CallOptions, type RawOptions } from './types.ts';

export { ApiCheckError } from './types.ts';
export type { ApiResponse, CallOptions, ClientLimits, KeyPlacement, RawOptions, Target } from './types.ts';

const MAX_REDIRECTS = 5;
const MAX_THROTTLE_RETRIES = 3;

/**
 * A value with every octet of its UTF-8 percent-encoded: the same value to a URI parser (RFC 3986
 * §6.2.2.2), its hex digits in either case (§6.2.2.1).
 */
export function everyOctet(value: string, hex: 'upper' | 'lower' = 'upper'): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) => b.toString(16).padStart(2, '0'))
    .map((h) => `%${hex === 'upper' ? h.toUpperCase() : h}`)
    .join('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one spec-aware client: builds requests from the contract, sends them within the run's budget,
 * pace and deadline, follows redirects (credentials only to their own origins), waits out
 * throttling, runs every check on every response, and records coverage and drift.
 */
export class ApiClient {
  private readonly outages: Outages;

  constructor(private readonly deps: ClientDeps) {
    this.outages = new Outages({ ...deps, exchange: (request) => this.exchange(request) });
  }

  /** Calls an operation by its operationId. */
  async call(operationId: string, options: CallOptions = {}): Promise<ApiResponse> {
    const { contract } = this.deps;
    const op = contract.operation(operationId);
    const { percentEncoded = [], repeated = [], lowerHex = [] } = options.form ?? {};
    const encode = (name: string, value: string) =>
      percentEncoded.includes(name)
        ? everyOctet(value)
        : lowerHex.includes(name)
          ? everyOctet(value, 'lower')
          : encodeURIComponent(value);
    let path = op.path;
    for (const param of op.segments.filter((s) => s.param)) {
      const value = options.path?.[param.param!];
      if (value === undefined) throw new Error(`${operationId} needs path parameter ${param.param}`);
      path = path.replace(`{${param.param}}`, encode(param.param!, value));
    }
    const pairs: string[] = [];
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value === undefined) continue;
      const pair = `${encodeURIComponent(name)}=${encode(name, value)}`;
      pairs.push(...(repeated.includes(name) ? [pair, pair] : [pair]));
    }
    const base = this.base(op.document, options.plainHttp === true);
    const { emptyQuery, trailingAmpersand } = options.form ?? {};
    const search = pairs.join('&') + (trailingAmpersand && pairs.length > 0 ? '&' : '');
    const query = search ? `?${search}` : emptyQuery ? '?' : '';
    const method = options.method ?? op.method.toUpperCase();
    return this.send(method, `${base}${path}${query}`, options);
  }

  /**
   * Whether an answer to a request for data the service has says its operation is gone, recorded
   * once for the report when it does. Only the caller knows the request named such data: a 404
   * for an unknown id is an answer, not a retirement.
   */
  retired(response: ApiResponse): boolean {
    if (response.gone === undefined || response.operation === undefined) return false;
    recordGone(this.deps.observations, response.operation, response.gone);
    return true;
  }

  /**
   * Sends a request as written (a next link, a malformed path), still matched and checked. An
   * absolute URL is a link from a body: plain HTTP to a configured host goes over HTTPS instead, and
   * another origin gets no credentials; both are noted as drift.
   */
  async raw(options: RawOptions): Promise<ApiResponse> {
    const base = options.base === 'images' ? this.base('images', false) : this.deps.target.baseUrl;
    if (!/^https?:\/\//i.test(options.url))
      return this.send(options.method ?? 'GET', `${base}${options.url}`, options);
    const link = linkDestination(options.url, this.deps.target);
    const response = await this.send(options.method ?? 'GET', link.url, options);
    const note = link.upgraded
      ? 'the service links over plain HTTP: followed over HTTPS to the configured host'
      : link.foreign
        ? `a link to ${new URL(link.url).origin}, which is not configured, was followed without credentials`
        : undefined;
    if (note)
      this.deps.observations.drift.push({
        operation: response.operation ?? '(no operation)',
        status: response.status,
        field: 'link',
        note,
      });
    return response;
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

  /** One call: prepare it, then send, check and record each answer, and follow it where it leads. */
  private async send(method: string, url: string, options: CallOptions): Promise<ApiResponse> {
    const call = prepareCall(method, url, options, this.deps.target, this.deps.redactor);
    for (;;) {
      // Every request to the image service names the calling system, a redirected one too.
      call.url = withImageSource(this.deps.target, call.url, options);
      const request = wireRequest(call, this.deps.target);
      const wire = await this.attempt(call, request);
      if (wire === undefined) continue;
      void this.deps.ledger.answered();
      const answer = { method, url: call.url, requestHeaders: request.headers, wire, curl: request.curl };
      if (await this.outages.waitedOut(call, wire, request)) {
        // No check judges what the gateway sends in an outage; a revision may document it.
        keepAsEvidence(this.deps, answer, call);
        continue;
      }
      const response = inspect(this.deps, answer, call);
      this.outages.remember(call.method, request, wire.status, response.operation);
      if (!(await this.follow(call, response, request.curl))) return response;
    }
  }

  /** Sends once; no answer is retried once live, then the test is not run. Undefined: try again. */
  private async attempt(
    call: Call,
    request: { url: string; headers: Record<string, string>; curl: string },
  ): Promise<WireResponse | undefined> {
    const { target, ledger } = this.deps;
    try {
      const { absoluteForm, chunked } = call.options.form ?? {};
      return await this.exchange({
        method: call.method,
        url: request.url,
        headers: request.headers,
        body: call.body,
        ...(absoluteForm || chunked ? { framing: { absoluteForm, chunked } } : {}),
      });
    } catch (error) {
      if (error instanceof RunStopped) this.deps.stop(error.reason);
      if (!(error instanceof TransportError)) throw error;
      const shown = call.redactor.text(call.url);
      if (error.kind === 'undecodable') {
        const failed = undecodable(`${call.method} ${shown}`, request.curl);
        // Found as the other checks' failures are, so the attribution reads whose it is.
        for (const { check, title, rules } of failed.failures)
          this.deps.observations.findings.push({ check, title, rules });
        throw failed;
      }
      const what = `${call.method} ${shown}: ${error.message}`;
      await ledger.transportFailure(what);
      this.deps.observations.retries.push({ reason: `no answer: ${error.message}`, url: shown });
      if (target.kind === 'live' && !call.retried) {
        call.retried = true;
        return undefined;
      }
      // Live, no answer is no verdict: the test is not run, and enough of them end the run.
      if (target.kind === 'live') this.deps.stop(`the service did not answer ${what}`);
      throw new Error(`${what}\nReproduce with:\n  ${request.curl}`);
    }
  }

  /** Whether to go on: a 429 waited out (the whole run waits), or a redirect followed. */
  private async follow(call: Call, response: ApiResponse, curl: string): Promise<boolean> {
    const { ledger, limits, target, observations } = this.deps;
    const { status, headers } = response;
    const shown = call.redactor.text(call.url);
    if (status === 429 && call.options.retryThrottled !== false) {
      const header = headers['retry-after'];
      const seconds = Number.isFinite(Number(header)) && Number(header) >= 0 ? Number(header) : 1;
      if (seconds > limits.maxRetryAfter) {
        const reason =
          `the service asked to wait ${seconds} s (429, Retry-After), ` +
          `more than CLM_MAX_RETRY_AFTER=${limits.maxRetryAfter}`;
        await ledger.stop(reason);
        this.deps.stop(reason);
      }
      if (call.throttled < MAX_THROTTLE_RETRIES) {
        call.throttled++;
        observations.retries.push({ reason: `429, Retry-After: ${header ?? '(none)'}`, url: shown });
        // The allowance is the key's, so the whole run waits, not this worker alone.
        await ledger.pause(seconds);
        return true;
      }
      if (target.kind === 'live')
        this.deps.stop(`still throttled (429) after ${MAX_THROTTLE_RETRIES} waits: ${shown}`);
    }
    const location = headers.location;
    if (status < 300 || status >= 400 || location === undefined || call.options.followRedirects === false)
      return false;
    if (call.redirects.length >= MAX_REDIRECTS) {
      const loop =
        `Too many redirects: more than ${MAX_REDIRECTS}, the last to ${call.redactor.text(location)}\n` +
        `Redirected from: ${call.redirects.join(' -> ')}\nReproduce with:\n  ${curl}`;
      const to = new URL(location, call.url);
      // Plain HTTP redirected to plain HTTP, over and over: never the redirect to HTTPS of TLS-01.
      if (to.protocol === 'http:') throw new Error(says('TLS-01', loop));
      // Sent to itself without the apiKey the client puts back: the key's query form never works.
      throw new Error(call.secrets.queryKey && to.toString() === call.url ? says('AUTH-02', loop) : loop);
    }
    call.redirects.push(shown);
    const next = new URL(location, call.url);
    call.carry &&= mayCarrySecrets(call.url, next, target);
    call.url = next.toString();
    return true;
  }

  /** Takes a slot of the run's ledger, waits for it, and sends within the request's bounds. */
  private async exchange(request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    framing?: WireRequest['framing'];
  }): Promise<WireResponse> {
    const { ledger, limits, target, observations } = this.deps;
    const grant = await ledger.take();
    if (!grant.ok) throw new RunStopped(grant.reason);
    if (grant.delayMs > 0) await sleep(grant.delayMs);
    observations.requests++;
    const left = grant.deadline === undefined ? Infinity : grant.deadline - Date.now();
    const started = performance.now();
    try {
      const wire = await sendOnWire({
        ...request,
        insecureTls: target.insecureTls,
        timeoutMs: Math.max(1, Math.min(limits.requestTimeoutMs, left)),
        maxBytes: limits.maxBodyBytes,
      });
      return { ...wire, ms: Math.round(performance.now() - started) };
    } catch (error) {
      if (grant.deadline !== undefined && Date.now() >= grant.deadline) {
        const reason = 'deadline reached (CLM_RUN_TIMEOUT): the run ends here, what ran is reported';
        await ledger.stop(reason);
        throw new RunStopped(reason);
      }
      throw error;
    }
  }
}
