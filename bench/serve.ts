import { DAY } from '../mock/state/clock.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMock } from '../mock/server.ts';

/**
 * One server for a benchmark, in its own process so the load generator does not share its CPU:
 * `mock <changes>` (the bundled mock) or `bare <bytes-file>` (node:http sending a fixed body).
 * Prints one JSON line with the URL to load, then serves until killed.
 */
const [kind, arg] = process.argv.slice(2);
const NOW = '2026-11-22T12:00:00.000Z';

if (kind === 'mock') {
  // The throttle is part of the work measured, set wide open so it never answers 429.
  const mock = await createMock({
    seed: 1,
    now: NOW,
    changes: Number(arg),
    throttle: { perSecond: 1e9, burst: 1e9 },
  });
  const log = mock.state.log;
  // A since in the middle of the window whose page is full: 200 changes, a whole page.
  let index = log.firstAfter(Date.parse(NOW) - 45 * DAY);
  while (index + 200 < log.length && log.at(index + 199)!.time - log.at(index)!.time >= DAY) index++;
  const since = new Date(log.at(index)!.time - 1).toISOString();
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
