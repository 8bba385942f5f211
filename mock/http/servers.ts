import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { answerClientErrors } from './adapter.ts';
import { DAY } from '../state/clock.ts';

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A self-signed certificate, made now, for the names a client on this machine may use. */
async function certificate(reachable: string): Promise<{ key: string; cert: string }> {
  const names = [...new Set(['127.0.0.1', 'localhost', reachable])];
  const pems = await generate([{ name: 'commonName', value: reachable }], {
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
  const https = createHttpsServer(await certificate(options.reachable), options.listener(true));
  const http = createHttpServer(options.listener(false));
  for (const server of [https, http]) {
    answerClientErrors(server);
    server.keepAliveTimeout = 5_000;
  }
  const httpsPort = await listen(https, host, options.port);
  const httpPort = await listen(http, host, options.httpPort).catch(async (error: unknown) => {
    await close(https);
    throw error;
  });
  return { httpsPort, httpPort, close: async () => void (await Promise.all([close(https), close(http)])) };
}
