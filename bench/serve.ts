import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMock } from '../mock/server.ts';
import { fullPageSince, NOW } from './page.ts';

/**
 * One server for a benchmark, in its own process so the load generator does not share its CPU:
 * `mock <changes>` (the bundled mock) or `bare <bytes-file>` (node:http sending a fixed body).
 * Prints one JSON line with the URL to load, then serves until killed.
 */
const [kind, arg] = process.argv.slice(2);

// The benchmark asks for the CPU time used so far, to charge each measurement its own.
process.on('SIGUSR2', () => {
  const { user, system } = process.cpuUsage();
  console.log(JSON.stringify({ cpu: user + system }));
});

if (kind === 'mock') {
  // The throttle is part of the work measured, set wide open so it never answers 429.
  const mock = await createMock({
    seed: 1,
    now: NOW,
    changes: Number(arg),
    throttle: { perSecond: 1e9, burst: 1e9 },
  });
  const since = fullPageSince(mock.state);
  const { rss, heapUsed } = process.memoryUsage();
  console.log(
    JSON.stringify({
      url: `${mock.httpUrl}/content/notifications?since=${since}`,
      key: 'mock-key-primary',
      memory: { rss, heapUsed },
    }),
  );
} else if (kind === 'bare') {
  const body = Buffer.from(arg ?? '');
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
    });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(
      JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, key: '' }),
    );
  });
} else {
  console.error('usage: serve.ts mock <changes> | bare <body>');
  process.exit(2);
}
