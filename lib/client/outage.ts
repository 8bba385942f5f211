import { OUTAGE } from '../allowances.ts';
import type { Contract } from '../contract/index.ts';
import { RunStopped } from '../run/ledger.ts';
import type { RunLedger } from '../run/ledger-server.ts';
import { iso } from '../time.ts';
import type { Call } from './call.ts';
import type { Observations } from './observations.ts';
import type { Redactor } from './redact.ts';
import { documentAt, operationAt } from './target.ts';
import type { WireResponse } from './transport.ts';
import type { ClientLimits, Target } from './types.ts';

/** A gateway's answers for a service that is down or too slow: an outage, unless the service answers others. */
const STATUSES = new Set<number>(OUTAGE.statuses);

/** A request as sent, kept to be sent again: its URL and headers, credentials included. */
export interface KnownRequest {
  url: string;
  headers: Record<string, string>;
}

/** What the client works with: the contract, the target, the run's ledger and limits, and where it records. */
export interface ClientDeps {
  contract: Contract;
  target: Target;
  ledger: RunLedger;
  limits: ClientLimits;
  redactor: Redactor;
  observations: Observations;
  /**
   * Ends the current test as not run (the run's budget, deadline or the service stopped it); an
   * `outage` the test may meet again later, when the service is back.
   */
  stop: (reason: string, cause?: 'outage') => never;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Live, a 502, 503 or 504 is either an outage (the service is down: waited out) or the service's
 * answer to this request (a verdict: the checks fail it, HTTP-04). A request the client saw answered
 * with success on the same operation (else the same service) tells which: asked again, it fails too
 * in an outage. An outage is waited out with a growing pause (a longer `Retry-After` honoured) for
 * `CLM_OUTAGE_WAIT` seconds; past that the test is stopped as an outage, named with its times (live,
 * it runs again at the end of the run). The allowance is `gateway-outage` in `lib/allowances.ts`.
 */
export class Outages {
  /** Requests answered with success, by operation and by service. */
  private readonly known = new Map<string, KnownRequest>();

  constructor(
    private readonly deps: Omit<ClientDeps, 'redactor'> & {
      exchange: (request: KnownRequest & { method: string }) => Promise<WireResponse>;
    },
  ) {}

  /** Whether to send the request again: true after waiting out an outage; false when the answer stands. */
  async waitedOut(call: Call, wire: WireResponse, request: KnownRequest): Promise<boolean> {
    const { target, limits, observations } = this.deps;
    const shown = call.redactor.text(call.url);
    if (target.kind !== 'live') return false;
    if (!STATUSES.has(wire.status)) {
      if (call.outage) this.record(call.outage, true, shown);
      call.outage = undefined;
      return false;
    }
    const outage = (call.outage ??= {
      began: Date.now(),
      status: wire.status,
      pauseS: OUTAGE.firstPauseS,
      seenUp: false,
    });
    const known = this.knownFor(request.url);
    if (known && known.url !== request.url && (await this.answersBelow500(known))) {
      // The service is up. Once more, in case this was the last of an outage; then it is its answer.
      if (outage.seenUp) return false;
      outage.seenUp = true;
      observations.retries.push({
        reason: `${wire.status} while the service answers others: asked once more before it is judged`,
        url: shown,
      });
      return true;
    }
    const waited = (Date.now() - outage.began) / 1000;
    if (waited >= limits.outageWait) {
      this.record(outage, false, shown);
      this.deps.stop(
        `the service was out (${wire.status}) from ${iso(outage.began)} to ${iso(Date.now())}, ` +
          `past CLM_OUTAGE_WAIT=${limits.outageWait} s: ${call.method} ${shown}`,
        'outage',
      );
    }
    const asked = Number(wire.headers['retry-after']);
    const retryAfter = Number.isFinite(asked) && asked > 0 ? Math.min(asked, limits.maxRetryAfter) : 0;
    const pause = Math.min(Math.max(retryAfter, outage.pauseS), limits.outageWait - waited);
    outage.pauseS = Math.min(outage.pauseS * 2, OUTAGE.maxPauseS);
    observations.retries.push({
      reason: `${wire.status}: the service is down, asked again after ${pause.toFixed(1)} s`,
      url: shown,
    });
    await sleep(pause * 1000);
    return true;
  }

  /** Notes an outage the request met, once it is over for the request: waited out, or given up on. */
  private record(outage: NonNullable<Call['outage']>, waitedOut: boolean, url: string): void {
    (this.deps.observations.outages ??= []).push({
      status: outage.status,
      began: iso(outage.began),
      ended: iso(Date.now()),
      waitedOut,
      url,
    });
  }

  /**
   * Keeps a GET the service answered with success (its checks passed), not over its plain-HTTP base,
   * as the request a later outage is told apart by: only a success says the service behind the
   * gateway answered (a refusal over plain HTTP or of a key comes from the gateway alone).
   */
  remember(method: string, request: KnownRequest, status: number, operation: string | undefined): void {
    const { target } = this.deps;
    if (method !== 'GET' || status < 200 || status >= 300) return;
    if (target.httpBaseUrl && request.url.startsWith(`${target.httpBaseUrl}/`)) return;
    if (operation) this.known.set(operation, request);
    const document = documentAt(target, request.url);
    if (document) this.known.set(document, request);
  }

  /** A request known to be good for the same operation, else the same service. */
  private knownFor(url: string): KnownRequest | undefined {
    const { contract, target } = this.deps;
    const operation = operationAt(contract, target, 'GET', url)?.id;
    return (operation && this.known.get(operation)) || this.known.get(documentAt(target, url) ?? '');
  }

  /** Whether a known request still answers below 500: one probe, within the run's budget and pace. */
  private async answersBelow500(known: KnownRequest): Promise<boolean> {
    try {
      const wire = await this.deps.exchange({ method: 'GET', ...known });
      void this.deps.ledger.answered();
      return wire.status < 500;
    } catch (error) {
      if (error instanceof RunStopped) this.deps.stop(error.reason);
      return false;
    }
  }
}
