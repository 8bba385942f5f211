import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { answerClientErrors } from './adapter.ts';
import { DAY } from '../state/clock.ts';

/** Listens on `host` and `port` (0: a free one), and says which port. */
export function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Closes a server and every connection it holds, stalled ones included. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A self-signed certificate, made now, for these names (IP addresses or DNS names; the first is its CN). */
export async function certificate(names: string[]): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: names[0] ?? '127.0.0.1' }], {
    keyType: 'ec',
    notAfterDate: new Date(Date.now() + 7 * DAY),
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: names.map((name) => (isIP(name) ? { type: 7, ip: name } : { type: 2, value: name })),
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export interface Servers {
  httpsPort: number;
  httpPort: number;
  close(): Promise<void>;
}

/**
 * HTTPS (with a certificate made now for `reachable`) and plain HTTP on `host`, each answering with
 * its listener; requests node cannot parse still get JSON.
 */
export async function startServers(options: {
  host: string;
  reachable: string;
  port: number;
  httpPort: number;
  listener: (secure: boolean) => RequestListener;
}): Promise<Servers> {
  const { host } = options;
  const https = createHttpsServer(
    await certificate([...new Set([options.reachable, '127.0.0.1', 'localhost'])]),
    options.listener(true),
  );
  const http = createHttpServer(options.listener(false));
  for (const server of [https, http]) {
    answerClientErrors(server);
    server.keepAliveTimeout = 5_000;
  }
  const httpsPort = await listen(https, host, options.port);
  const httpPort = await listen(http, host, options.httpPort).catch(async (error: unknown) => {
    await closeServer(https);
    throw error;
  });
  return {
    httpsPort,
    httpPort,
    close: async () => void (await Promise.all([closeServer(https), closeServer(http)])),
  };
}
