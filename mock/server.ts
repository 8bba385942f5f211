import { isIP } from 'node:net';
import { loadContract } from '../lib/contract/index.ts';
import { findFault, type Fault } from './faults/index.ts';
import { requestListener } from './http/adapter.ts';
import { docsServer } from './http/docs.ts';
import { entry } from './http/entry.ts';
import { followHost, WILDCARDS } from './http/host.ts';
import type { RequestLogEntry } from './http/log.ts';
import { startServers } from './http/servers.ts';
import { createPipeline } from './pipeline.ts';
import { chooseBehaviours, findProfile, type Behaviour } from './profiles/index.ts';
import { metered, type Met } from './profiles/met.ts';
import { State, type OutagePlan, type PublishRequest } from './state/index.ts';
import { Throttle, type ThrottleOptions } from './throttle.ts';

export type { RequestLogEntry } from './http/log.ts';

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
  /**
   * On the real clock, changes a day of a feed that is a function of the seed and the time, its
   * history and what it publishes as time passes alike (none when absent or 0; not with `changes`).
   */
  publishPerDay?: number;
  /** The wall clock the real clock follows: `Date.now` unless a test gives its own. */
  wall?: () => number;
  /** Answer as a real service is documented to (`ft-gateway`): a profile of `mock/profiles`. */
  as?: string;
  /** The profile's behaviours to switch on, by name: all when absent. */
  behaviours?: readonly string[];
  /** The profile's behaviours to leave off, by name. */
  without?: readonly string[];
  /** When the profile's backend restarts and for how long (`ft-gateway`: after 300 requests, 20 s). */
  outage?: OutagePlan;
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
  /** The profile it answers as, with the behaviours on; none for the clean service. */
  profile: { name: string; behaviours: readonly Behaviour[] } | undefined;
  setFaults(names: readonly string[]): void;
  /**
   * How many answers each behaviour of the profile on has changed since the mock started (0 for one
   * never met), by name: a reset keeps the count.
   */
  behavioursMet(): Record<string, number>;
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

/** The profile asked for, with the behaviours chosen; behaviours named without a profile are an error. */
function profileOf(options: MockOptions): Mock['profile'] {
  if (options.as === undefined) {
    if (options.behaviours || options.without)
      throw new Error('behaviours and without choose among the behaviours of a profile: name it with as');
    return undefined;
  }
  const profile = findProfile(options.as);
  return { name: profile.name, behaviours: chooseBehaviours(profile, options) };
}

/**
 * Starts the bundled mock (on 127.0.0.1 unless `host` says otherwise): HTTPS with a certificate made now,
 * and plain HTTP.
 */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = await loadContract();
  let faults: readonly Fault[] = (options.faults ?? []).map(findFault);
  const now = options.now === undefined ? undefined : new Date(options.now).getTime();
  const state = new State({
    seed: options.seed ?? 1,
    now,
    changes: options.changes,
    publishPerDay: options.publishPerDay,
    wall: options.wall,
    outage: options.outage,
  });
  const throttle = new Throttle(options.throttle);
  const control = options.control === true;
  const profile = profileOf(options);
  const met: Met = new Map();
  const steps = profile?.behaviours.map((b) => metered(b, met));
  const pipeline = createPipeline({ contract, state, faults: () => faults, throttle, control, steps });
  const host = options.host ?? '127.0.0.1';
  const reachable = WILDCARDS[host] ?? host;
  const urlHost = isIP(reachable) === 6 ? `[${reachable}]` : reachable;
  const docs = docsServer(options.docs);
  const origins = { https: '', http: '', ports: { https: 0, http: 0 } };

  const listener = (secure: boolean) =>
    entry(
      requestListener(
        followHost(pipeline, host, secure, () => origins.ports),
        {
          secure,
          origin: () => (secure ? origins.https : origins.http),
          httpsOrigin: () => origins.https,
          httpOrigin: () => origins.http,
        },
      ),
      { secure, control, faults: () => faults, docs, onRequest: options.onRequest },
    );
  const servers = await startServers({
    host,
    reachable,
    port: options.port ?? 0,
    httpPort: options.httpPort ?? 0,
    listener,
  });
  origins.ports = { https: servers.httpsPort, http: servers.httpPort };
  origins.https = `https://${urlHost}:${servers.httpsPort}`;
  origins.http = `http://${urlHost}:${servers.httpPort}`;

  return {
    url: origins.https,
    httpUrl: origins.http,
    imagesUrl: `${origins.https}${contract.basePath('images')}`,
    host,
    state,
    throttle,
    get faults() {
      return faults;
    },
    profile,
    setFaults: (names) => {
      faults = names.map(findFault);
    },
    behavioursMet: () =>
      Object.fromEntries((profile?.behaviours ?? []).map((b) => [b.name, met.get(b.name) ?? 0])),
    publish: (requests) => state.publish(requests),
    advance: (ms) => state.clock.advance(ms),
    reset: () => {
      state.reset();
      throttle.reset();
    },
    close: () => servers.close(),
  };
}
