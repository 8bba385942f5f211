import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * The mock's speed, as ratios against baselines measured in the same run:
 * 1. throughput of a full change-feed page (key check and since validation included) against a
 *    bare node:http server sending the same bytes: the mock must reach at least 50%;
 * 2. page latency with 1,000,000 stored changes against 10,000: within 1.5x (no scan of the log).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function start(...args: string[]): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.ts', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, ...(JSON.parse(line) as { url: string; key: string }) };
}

async function load(url: string, key: string, connections: number) {
  const result = await autocannon({
    url,
    connections,
    duration: SECONDS,
    headers: key ? { 'X-Api-Key': key } : {},
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  // Mean latency from the request count: autocannon's own latency figures are whole milliseconds.
  return {
    rps: result.requests.average,
    latency: (result.duration * 1000 * connections) / result.requests.total,
  };
}

async function measure(args: string[], connections: number) {
  const server = await start(...args);
  try {
    const body = await (await fetch(server.url, { headers: { 'X-Api-Key': server.key } })).text();
    return { ...(await load(server.url, server.key, connections)), body };
  } finally {
    server.child.kill();
  }
}

const mock = await measure(['mock', '20000'], 10);
const pageSize = (JSON.parse(mock.body) as { notifications: unknown[] }).notifications.length;
const bare = await measure(['bare', mock.body], 10);
const small = await measure(['mock', '10000'], 1);
const large = await measure(['mock', '1000000'], 1);

const throughput = mock.rps / bare.rps;
const latency = large.latency / small.latency;
console.log(`Change feed, full page (${pageSize} notifications, ${mock.body.length} bytes), ${SECONDS} s each, 10 connections:
  mock        ${mock.rps.toFixed(0)} requests/s
  bare server ${bare.rps.toFixed(0)} requests/s (same bytes, pre-serialised)
  ratio       ${(throughput * 100).toFixed(0)}% of the bare server (target: at least 50%)
Page latency, 1 connection:
  10,000 changes     ${small.latency.toFixed(3)} ms
  1,000,000 changes  ${large.latency.toFixed(3)} ms
  ratio              ${latency.toFixed(2)}x (target: at most 1.5x)`);

const failures = [
  pageSize !== 200 ? 'the measured page is not a full page of 200' : '',
  throughput < 0.5 ? 'throughput below 50% of the bare server' : '',
  latency > 1.5 ? 'latency with 1,000,000 changes above 1.5x that with 10,000' : '',
].filter(Boolean);
if (failures.length > 0) {
  console.error(`FAILED: ${failures.join('; ')}`);
  process.exit(1);
}
