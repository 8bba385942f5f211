import type { OutagePlan, State } from '../state/index.ts';
import { PendingBytes, type MockResponse } from '../types.ts';
import type { Behaviour } from './profile.ts';

/**
 * The twin's backend restart unless the mock is told otherwise: once, after 300 requests with a key,
 * for 20 seconds, as FT's monitors see one last.
 */
export const DEFAULT_OUTAGE: OutagePlan = { after: 300, seconds: 20 };

/** An outage plan as a command line writes it: `N:S` (after N requests, S seconds), or `none`. */
export function outagePlanOf(text: string): OutagePlan | undefined {
  if (text === 'none') return { after: Infinity, seconds: 0 };
  const m = /^(\d+):(\d+(?:\.\d+)?)$/.exec(text);
  return m ? { after: Number(m[1]), seconds: Number(m[2]) } : undefined;
}

/** How long the request the outage starts on waits before the gateway gives up on it (a read timeout). */
const READ_TIMEOUT_MS = 2_000;

/** The gateway's own answers while the backend is down, as captured. */
export const OUTAGE_BODIES = {
  503: { message: 'server error' },
  504: { message: 'java.net.SocketTimeoutException: Read timed out' },
} as const;

/** Where each mock's outage is: requests with a key counted until it starts, then when it ends (wall ms). */
const outages = new WeakMap<State, { keyed: number; until?: number }>();

/** A JSON answer the gateway sends after waiting `ms`: the backend did not answer in time. */
function late(status: 504, ms: number): MockResponse {
  const body = Buffer.from(JSON.stringify(OUTAGE_BODIES[status]));
  const after = new PendingBytes(() => new Promise((resolve) => setTimeout(() => resolve(body), ms)));
  return { status, headers: { 'Content-Type': 'application/json' }, body: after };
}

export const OUTAGE_BEHAVIOUR: Behaviour = {
  name: 'gateway-outage',
  description:
    `The backend restarts once: after ${DEFAULT_OUTAGE.after} requests with a key (the mock's ` +
    '`outage` option says when and for how long), the request in flight gets 504 ' +
    `${JSON.stringify(OUTAGE_BODIES[504])} after a read timeout, then every request with a key, ` +
    `valid or not, gets 503 ${JSON.stringify(OUTAGE_BODIES[503])} for ${DEFAULT_OUTAGE.seconds} ` +
    'seconds, the retries included; then the service answers again. A request without a key is ' +
    'refused by the gateway itself, outage or not.',
  source:
    "FT's gateway answers 503 when the backend fails without a body and 504 after a read timeout; a " +
    'backend restart answers 503 for tens of seconds, the retry included.',
  apply: (request, next, seen) => {
    const response = next(request);
    const { context } = seen;
    if (!context?.key) return response;
    const { state } = context;
    const plan = state.options.outage ?? DEFAULT_OUTAGE;
    let outage = outages.get(state);
    if (!outage) outages.set(state, (outage = { keyed: 0 }));
    const now = Date.now();
    if (outage.until === undefined && ++outage.keyed > plan.after) {
      outage.until = now + plan.seconds * 1000;
      // The read timeout is a part of the outage, never all of it.
      return late(504, Math.min(READ_TIMEOUT_MS, plan.seconds * 250));
    }
    if (outage.until === undefined || now >= outage.until) return response;
    return { status: 503, body: OUTAGE_BODIES[503] };
  },
};
