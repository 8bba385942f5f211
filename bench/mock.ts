import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { commandLine } from '../lib/cli.ts';
import { stageCosts } from './stages.ts';
import { median } from './measure.ts';

/**
 * The mock's speed, as ratios against baselines measured in the same run:
 * 1. throughput of a full change-feed page (key check and since validation included) against a
 *    bare node:http server sending the same bytes: the mock must reach at least 90%;
 * 2. page latency with 1,000,000 stored changes against 10,000: within 1.5x (no scan of the log).
 * Each is the median of interleaved rounds, so a busy moment of the machine hits both sides alike.
 * Then what one request costs in the mock, stage by stage, timed in this process (bench/stages.ts).
 */
commandLine(`Usage: npm run bench:mock

  Measures the mock against baselines in the same run: full change-feed pages per second against a
  bare node:http server sending the same bytes (target: at least 90%), and page latency with
  1,000,000 stored changes against 10,000 (target: at most 1.5x); then what one request costs, by
  stage (key check, routing, validation, fault wrapping, log hook, serialisation). Exits 1 when a
  target is missed.

  BENCH_SECONDS   seconds of load per measurement (default 2)
  BENCH_ROUNDS    interleaved rounds, at least 5 (default 7)
  -h, --help      this text`);

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 7));

interface Server {
  child: ChildProcess;
  lines: AsyncIterator<string>;
  url: string;
  key: string;
}

async function start(...args: string[]): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.ts', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const { value } = (await lines.next()) as IteratorResult<string, undefined>;
  return { child, lines, ...(JSON.parse(value ?? '{}') as { url: string; key: string }) };
}

/** The CPU time the server's process has used so far, in microseconds (it answers SIGUSR2). */
async function cpu(server: Server): Promise<number> {
  server.child.kill('SIGUSR2');
  const { value } = (await server.lines.next()) as IteratorResult<string, undefined>;
  return (JSON.parse(value ?? '{}') as { cpu: number }).cpu;
}

async function load(server: Server, connections: number) {
  const before = await cpu(server);
  const result = await autocannon({
    url: server.url,
    connections,
    duration: SECONDS,
    headers: server.key ? { 'X-Api-Key': server.key } : {},
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${server.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  // Mean latency from the request count: autocannon's own latency figures are whole milliseconds.
  return {
    rps: result.requests.average,
    latency: (result.duration * 1000 * connections) / result.requests.total,
    /** The server's CPU time per request, in microseconds: what other work on the machine moves least. */
    cpu: ((await cpu(server)) - before) / result.requests.total,
  };
}

/** One request's cost by stage, and what is left for node:http and the socket. */
function printCosts({ stages, pipeline }: Awaited<ReturnType<typeof stageCosts>>, rps: number): void {
  const us = (micros: number) => `${micros.toFixed(2).padStart(6)} µs`;
  console.log('One clean request for the page, by stage (timed in process):');
  for (const stage of stages) console.log(`  ${stage.name.padEnd(15)}${us(stage.micros)}  ${stage.note}`);
  console.log(`  ${'pipeline'.padEnd(15)}${us(pipeline)}  all of the above, as the mock calls them`);
  console.log(
    `  ${'whole request'.padEnd(15)}${us(1e6 / rps)}  1 s / requests per second (10 connections): ` +
      'the rest is node:http and the socket, as for the bare server',
  );
}

const servers: Server[] = [];
async function server(...args: string[]): Promise<Server> {
  const started = await start(...args);
  servers.push(started);
  return started;
}

const costs = await stageCosts();
try {
  const mock = await server('mock', '20000');
  const body = await (await fetch(mock.url, { headers: { 'X-Api-Key': mock.key } })).text();
  const pageSize = (JSON.parse(body) as { notifications: unknown[] }).notifications.length;
  const bare = await server('bare', body);
  const small = await server('mock', '10000');
  const large = await server('mock', '1000000');

  // Interleaved rounds: each ratio compares two measurements taken side by side, under the same load.
  // The order alternates, so neither side always runs after the other.
  const throughputs: number[] = [];
  const perCpu: number[] = [];
  const latencies: number[] = [];
  const last = { mock: 0, bare: 0, small: 0, large: 0, mockCpu: 0, bareCpu: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const [first, second] = round % 2 === 0 ? [mock, bare] : [bare, mock];
    const one = await load(first, 10);
    const other = await load(second, 10);
    const [m, b] = first === mock ? [one, other] : [other, one];
    Object.assign(last, { mock: m.rps, bare: b.rps, mockCpu: m.cpu, bareCpu: b.cpu });
    last.small = (await load(small, 1)).latency;
    last.large = (await load(large, 1)).latency;
    throughputs.push(last.mock / last.bare);
    perCpu.push(b.cpu / m.cpu);
    latencies.push(last.large / last.small);
  }
  const throughput = median(throughputs);
  const latency = median(latencies);
  console.log(
    `Change feed, full page (${pageSize} notifications, ${body.length} bytes), ` +
      `${ROUNDS} interleaved rounds of ${SECONDS} s:
  mock        ${last.mock.toFixed(0)} requests/s (last round, 10 connections)
  bare server ${last.bare.toFixed(0)} requests/s (same bytes, pre-serialised)
  ratio       ${(throughput * 100).toFixed(0)}% of the bare server, ` +
      `median of ${throughputs.map((t) => `${(t * 100).toFixed(0)}%`).join(' ')} (target: at least 90%)
  CPU         ${last.mockCpu.toFixed(1)} µs a request in the mock, ` +
      `${last.bareCpu.toFixed(1)} µs in the bare server (last round): ` +
      `requests per CPU-second ${(median(perCpu) * 100).toFixed(0)}% of the bare server's, ` +
      `median of ${perCpu.map((t) => `${(t * 100).toFixed(0)}%`).join(' ')}
Page latency, 1 connection:
  10,000 changes     ${last.small.toFixed(3)} ms (last round)
  1,000,000 changes  ${last.large.toFixed(3)} ms
  ratio              ${latency.toFixed(2)}x, median of ${latencies.map((l) => l.toFixed(2)).join(' ')} ` +
      `(target: at most 1.5x)`,
  );
  printCosts(costs, last.mock);

  const failures = [
    pageSize !== 200 ? 'the measured page is not a full page of 200' : '',
    throughput < 0.9 ? 'throughput below 90% of the bare server' : '',
    latency > 1.5 ? 'latency with 1,000,000 changes above 1.5x that with 10,000' : '',
  ].filter(Boolean);
  if (failures.length > 0) {
    console.error(`FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  for (const s of servers) s.child.kill();
}
