import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';
import { sendOnWire, TransportError } from '../../lib/client/transport.ts';

const ANSWER =
  'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok';

/**
 * A server that answers the first request of each connection and then drops the connection when
 * the next one arrives on it: what a server does when it closes an idle kept-alive connection just
 * as the client reuses it. `resetFresh` drops fresh connections too: a service that resets.
 */
async function dropping(resetFresh: boolean) {
  const connections: Socket[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    let requests = 0;
    socket.on('error', () => {});
    socket.on('data', () => {
      requests++;
      if (resetFresh || requests > 1) socket.resetAndDestroy();
      else socket.write(ANSWER);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // The client keeps its last connection alive: closing the server ends it too.
  const close = () => {
    for (const socket of connections) socket.destroy();
    return new Promise((done) => server.close(done));
  };
  return { url, connections, close };
}

const wire = (url: string, method = 'GET') => ({
  method,
  url,
  headers: {},
  insecureTls: false,
  timeoutMs: 5_000,
  maxBytes: 1_000,
});

test.describe('the wire and kept-alive connections @HTTP-04', () => {
  test('a GET on a kept-alive connection the server closed is sent again on a fresh one', async () => {
    const server = await dropping(false);
    try {
      expect((await sendOnWire(wire(server.url))).status).toBe(200);
      expect((await sendOnWire(wire(server.url))).status).toBe(200);
      expect(server.connections.length, 'the second answer came on a fresh connection').toBe(2);
    } finally {
      await server.close();
    }
  });

  test('a reset on a fresh connection is the service’s, reported and never sent again', async () => {
    const server = await dropping(true);
    try {
      const error = await sendOnWire(wire(server.url)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).kind).toBe('reset');
      expect(server.connections.length).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('a POST on a closed kept-alive connection is not sent again: it may have changed something', async () => {
    const server = await dropping(false);
    try {
      await sendOnWire(wire(server.url));
      const error = await sendOnWire(wire(server.url, 'POST')).catch((e: unknown) => e);
      expect((error as TransportError).kind).toBe('reset');
      expect(server.connections.length).toBe(1);
    } finally {
      await server.close();
    }
  });
});
