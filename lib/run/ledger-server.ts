import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ledger, type Grant, type LedgerState, type Limits } from './ledger.ts';

/** What the client sees of the run's ledger, in the same process or across loopback. */
export interface RunLedger {
  take(): Promise<Grant>;
  pause(seconds: number): Promise<void>;
  stop(reason: string): Promise<void>;
  transportFailure(reason: string): Promise<void>;
  answered(): Promise<void>;
  state(): Promise<LedgerState>;
}

/** The environment variable through which workers find the run's ledger. */
export const LEDGER_URL_VARIABLE = 'CLM_RUN_LEDGER_URL';

/** A ledger in this process: for a run without limits, and for the project's own tests. */
export function localLedger(ledger: Ledger): RunLedger {
  return {
    take: () => Promise.resolve(ledger.take()),
    pause: (seconds) => Promise.resolve(ledger.pause(seconds)),
    stop: (reason) => Promise.resolve(void ledger.stop(reason)),
    transportFailure: (reason) => Promise.resolve(ledger.transportFailure(reason)),
    answered: () => Promise.resolve(ledger.answered()),
    state: () => Promise.resolve(ledger.state()),
  };
}

/** Serves a ledger on 127.0.0.1; `unref`ed, so it never keeps the runner alive. */
export async function serveLedger(limits: Limits): Promise<{ url: string; ledger: Ledger; server: Server }> {
  const ledger = new Ledger(limits);
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body = (body + chunk).slice(0, 10_000)));
    req.on('end', () => {
      let input: { seconds?: number; reason?: string } = {};
      try {
        input = (body ? JSON.parse(body) : {}) as typeof input;
      } catch {
        // Anything but a worker's JSON is read as an empty request: the runner must not fall over.
      }
      const reason = String(input.reason ?? '');
      const answer: Record<string, () => unknown> = {
        '/take': () => ledger.take(),
        '/pause': () => ledger.pause(Number(input.seconds)),
        '/stop': () => ledger.stop(reason),
        '/failure': () => ledger.transportFailure(reason),
        '/answered': () => ledger.answered(),
        '/state': () => ledger.state(),
      };
      const handler = answer[req.url ?? ''];
      res.writeHead(handler ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(handler ? (handler() ?? null) : { message: 'unknown' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  // Longer than a worker keeps an idle socket between two sends, so the server rarely closes one in use.
  server.keepAliveTimeout = 65_000;
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ledger, server };
}

/** A worker's view of the ledger served by the runner's main process. */
export function remoteLedger(url: string): RunLedger {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const call = <T>(path: string, input: object = {}, retried = false): Promise<T> =>
    new Promise((resolve, reject) => {
      const req = request(`${url}${path}`, { method: 'POST', agent, timeout: 10_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text) as T));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('the run ledger did not answer')));
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed as it was reused: the request never arrived, so
        // sending it again on a fresh socket is safe (node's documented remedy).
        if (req.reusedSocket && !retried && (error.code === 'ECONNRESET' || /hang up/.test(error.message)))
          call<T>(path, input, true).then(resolve, reject);
        else reject(error);
      });
      req.end(JSON.stringify(input));
    });
  return {
    take: () => call<Grant>('/take'),
    pause: (seconds) => call('/pause', { seconds }),
    stop: (reason) => call('/stop', { reason }),
    transportFailure: (reason) => call('/failure', { reason }),
    answered: () => call('/answered'),
    state: () => call<LedgerState>('/state'),
  };
}
