import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { loadContract } from '../lib/contract/index.ts';
import { answerClientErrors, requestListener } from './http/adapter.ts';
import { findFault, type Fault } from './faults/index.ts';
import { createPipeline } from './pipeline.ts';
import { State, type PublishRequest } from './state/index.ts';
import { Throttle, type ThrottleOptions } from './throttle.ts';

export interface MockOptions {
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
  throttle?: ThrottleOptions;
  /** Honour `Prefer: faults=a,b` per request: off unless asked for. */
  control?: boolean;
}

export interface Mock {
  /** HTTPS base URL of the main service, e.g. `https://127.0.0.1:8443`. */
  url: string;
  /** Plain-HTTP base URL of the same service. */
  httpUrl: string;
  /** HTTPS base URL of the image service v2. */
  imagesUrl: string;
  state: State;
  throttle: Throttle;
  /** The faults in force: switched at run time, per test. */
  readonly faults: readonly Fault[];
  setFaults(names: readonly string[]): void;
  /** Adds changes to the feed at the clock's current time. */
  publish(requests: PublishRequest[]): ReturnType<State['publish']>;
  /** Back to the seeded state: data, clock and throttle as at start. */
  reset(): void;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts the bundled mock on 127.0.0.1: HTTPS with a certificate made now, and plain HTTP. */
export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = await loadContract();
  let faults: readonly Fault[] = (options.faults ?? []).map(findFault);
  const now = options.now === undefined ? undefined : new Date(options.now).getTime();
  const state = new State({ seed: options.seed ?? 1, now, changes: options.changes });
  const throttle = new Throttle(options.throttle);
  const pipeline = createPipeline({
    contract,
    state,
    faults: () => faults,
    throttle,
    control: options.control === true,
  });

  const pems = await generate([{ name: 'commonName', value: HOST }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 7 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: HOST },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  let httpsOrigin = '';
  let httpOrigin = '';
  const https = createHttpsServer(
    { key: pems.private, cert: pems.cert },
    requestListener(pipeline, { secure: true, origin: () => httpsOrigin, httpsOrigin: () => httpsOrigin }),
  );
  const http = createHttpServer(
    requestListener(pipeline, { secure: false, origin: () => httpOrigin, httpsOrigin: () => httpsOrigin }),
  );
  for (const server of [https, http]) {
    answerClientErrors(server);
    server.keepAliveTimeout = 5_000;
  }
  httpsOrigin = `https://${HOST}:${await listen(https, options.port ?? 0)}`;
  httpOrigin = `http://${HOST}:${await listen(http, options.httpPort ?? 0)}`;

  return {
    url: httpsOrigin,
    httpUrl: httpOrigin,
    imagesUrl: `${httpsOrigin}${contract.basePath('images')}`,
    state,
    throttle,
    get faults() {
      return faults;
    },
    setFaults: (names) => {
      faults = names.map(findFault);
    },
    publish: (requests) => state.publish(requests),
    reset: () => {
      state.reset();
      throttle.reset();
    },
    close: async () => {
      await Promise.all([close(https), close(http)]);
    },
  };
}
