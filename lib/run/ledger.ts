/**
 * The run's one budget, pace and deadline, shared by every worker of a run (and the workers that
 * replace them): one `Ledger` lives in the runner's main process, workers reach it over loopback.
 */

/** The run stopped before this request: the rest of the run is "not run", never a failed rule. */
export class RunStopped extends Error {
  constructor(readonly reason: string) {
    super(`not run: ${reason}`);
    this.name = 'RunStopped';
  }
}

export interface Limits {
  /** Requests per second for the whole run (Infinity: no pace). */
  perSecond: number;
  /** The most requests the run may send (Infinity: no budget). */
  budget: number;
  /** Epoch milliseconds after which no request is sent (undefined: no deadline). */
  deadline?: number;
  /** Consecutive requests with no answer after which the service counts as unreachable. */
  maxTransportFailures?: number;
}

export type Grant = { ok: true; delayMs: number; deadline?: number } | { ok: false; reason: string };

export interface LedgerState {
  requests: number;
  budget: number;
  perSecond: number;
  deadline?: number;
  stopped?: string;
  transportFailures: string[];
}

/** Hands out send slots: at most `budget` of them, `1/perSecond` apart, none past the deadline. */
export class Ledger {
  private used = 0;
  private next = 0;
  private pausedUntil = 0;
  private stopped: string | undefined;
  private consecutiveFailures = 0;
  private readonly failures: string[] = [];

  constructor(private readonly limits: Limits) {}

  take(now = Date.now()): Grant {
    if (this.stopped) return { ok: false, reason: this.stopped };
    const { budget, perSecond, deadline } = this.limits;
    if (this.used >= budget) return this.stop(`budget spent: ${budget} requests sent (CLM_REQUEST_BUDGET)`);
    const at = Math.max(now, this.next, this.pausedUntil);
    if (deadline !== undefined && at >= deadline)
      return this.stop('deadline reached (CLM_RUN_TIMEOUT): the run ends here, what ran is reported');
    this.used++;
    this.next = at + (Number.isFinite(perSecond) ? 1000 / perSecond : 0);
    return { ok: true, delayMs: at - now, ...(deadline !== undefined ? { deadline } : {}) };
  }

  /** The service asked every client of the key to wait (429 with Retry-After). */
  pause(seconds: number, now = Date.now()): void {
    this.pausedUntil = Math.max(this.pausedUntil, now + seconds * 1000);
  }

  stop(reason: string): { ok: false; reason: string } {
    this.stopped ??= reason;
    return { ok: false, reason: this.stopped };
  }

  /** A request got no answer (refused, reset, timeout, TLS, too large); enough in a row stop the run. */
  transportFailure(reason: string): void {
    this.failures.push(reason);
    this.consecutiveFailures++;
    const max = this.limits.maxTransportFailures ?? 3;
    if (this.consecutiveFailures >= max)
      this.stop(`the service did not answer ${max} requests in a row (last: ${reason})`);
  }

  answered(): void {
    this.consecutiveFailures = 0;
  }

  state(): LedgerState {
    return {
      requests: this.used,
      budget: this.limits.budget,
      perSecond: this.limits.perSecond,
      deadline: this.limits.deadline,
      stopped: this.stopped,
      transportFailures: this.failures.slice(-20),
    };
  }
}
