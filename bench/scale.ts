import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { commandLine } from '../lib/cli.ts';
import { median, spread } from './measure.ts';

/**
 * The mock's change feed at scale, against baselines measured in the same run:
 * 1. `npm run mock -- --changes 5000000 --publish 0` (a feed that stands still) until it listens:
 *    at most 3 s and 500 MB (resident, at its peak), beside the same start with 10,000 changes;
 * 2. page latency with 5,000,000 stored changes against 10,000: within 1.2x.
 * Medians of interleaved rounds, so a busy moment of the machine hits both sides alike.
 */
commandLine(`Usage: npm run bench:scale

  Measures the mock's change feed with 5,000,000 stored changes against 10,000 in the same run:
  the start of npm run mock -- --changes N --publish 0 until it listens (targets: at most 3 s, at most 500 MB
  resident at the peak), and the latency of a full page (target: at most 1.2x that with 10,000).
  Prints medians and spreads of interleaved rounds; exits 1 when a target is missed.

  BENCH_SECONDS   seconds of requests per latency measurement (default 2)
  BENCH_ROUNDS    interleaved rounds, at least 3 (default 7)
  BENCH_STARTS    starts of each size (default 3)
  -h, --help      this text`);

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 7));
const STARTS = Math.max(1, Number(process.env.BENCH_STARTS ?? 3));
const [LARGE, SMALL] = [5_000_000, 10_000];
const GOALS = { startMs: 3_000, rssMb: 500, latency: 1.2 };

interface Start {
  ms: number;
  /** Resident memory when listening, and at its peak until then, in MB. */
  rssMb: number;
  peakMb: number;
  /** CPU time of the mock's process until it listens: the start without the machine's other load. */
  cpuMs: number;
}

/** The process of the tree under `pid` that runs the mock's CLI (npm runs it through a shell and tsx). */
function mockProcess(pid: number): number | undefined {
  const children = (id: number) =>
    readFileSync(`/proc/${id}/task/${id}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  const queue = [pid];
  let found: number | undefined;
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    try {
      if (readFileSync(`/proc/${id}/cmdline`, 'utf8').includes('mock/cli.ts')) found = id;
      queue.push(...children(id));
    } catch {
      // Gone already, or no /proc: nothing to read.
    }
  }
  return found;
}

function processFigures(pid: number): Omit<Start, 'ms'> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024, cpuMs: ticks * 10 };
}

/** Starts `npm run mock` with `changes` until it says where it listens, measures it, stops it. */
async function startMock(changes: number): Promise<Start> {
  const began = performance.now();
  const child = spawn(
    'npm',
    [
      'run',
      '-s',
      'mock',
      '--',
      '--changes',
      String(changes),
      '--publish',
      '0',
      '--port',
      '0',
      '--http-port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  try {
    const lines = createInterface({ input: child.stdout });
    let listening = false;
    for await (const line of lines) if ((listening = line.startsWith('  HTTPS '))) break;
    if (!listening)
      throw new Error(`npm run mock -- --changes ${changes} --publish 0 stopped before it listened`);
    const ms = performance.now() - began;
    const pid = mockProcess(child.pid!);
    if (pid === undefined) throw new Error('The mock process was not found under npm');
    return { ms, ...processFigures(pid) };
  } finally {
    stop(child);
    await once(child, 'exit');
  }
}

/** Ends the whole group that npm started (npm, its shell, tsx and the mock): it was started detached. */
function stop(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // Ended already.
  }
}

interface Server {
  child: ChildProcess;
  url: string;
  key: string;
  memory: { rss: number; heapUsed: number };
}

async function server(changes: number): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.ts', 'mock', String(changes)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, ...(JSON.parse(line) as Omit<Server, 'child'>) };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { 'X-Api-Key': key } }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    })
      .once('error', reject)
      .end();
  });
}

/**
 * Latency of a page, in ms, one request at a time on one kept-alive connection for BENCH_SECONDS:
 * the median request, which a busy moment of the machine moves far less than it moves a mean.
 */
async function latency({ url, key }: Server): Promise<number> {
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  while (performance.now() < until) {
    const began = performance.now();
    const status = await get(url, key);
    times.push(performance.now() - began);
    if (status !== 200) throw new Error(`${url}: ${status}`);
  }
  return median(times);
}

async function measureStarts(): Promise<{ large: Start[]; small: Start[] }> {
  const large: Start[] = [];
  const small: Start[] = [];
  // Interleaved: each large start beside a small one, under the same load.
  for (let round = 0; round < STARTS; round++) {
    small.push(await startMock(SMALL));
    large.push(await startMock(LARGE));
  }
  return { large, small };
}

async function measureLatency(): Promise<{
  ratios: number[];
  small: number[];
  large: number[];
  heap: Server['memory'];
}> {
  const servers: Server[] = [];
  try {
    const small = await server(SMALL);
    servers.push(small);
    const large = await server(LARGE);
    servers.push(large);
    const result = {
      ratios: [] as number[],
      small: [] as number[],
      large: [] as number[],
      heap: large.memory,
    };
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in the other order, so a load that rises or falls in a round favours neither.
      const [first, second] = round % 2 === 0 ? [small, large] : [large, small];
      const [one, two] = [await latency(first), await latency(second)];
      result.small.push(first === small ? one : two);
      result.large.push(first === small ? two : one);
      result.ratios.push(result.large.at(-1)! / result.small.at(-1)!);
    }
    return result;
  } finally {
    for (const s of servers) s.child.kill();
  }
}

const verdict = (ok: boolean) => (ok ? 'pass' : 'FAIL');
const count = (changes: number) => `${changes.toLocaleString('en')} changes`.padEnd(18);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const pick = (starts: Start[], field: keyof Start) => starts.map((s) => s[field]);

/** One size's start: median time and its spread, median CPU, memory when listening and at the peak. */
function startLine(changes: number, starts: Start[]): string {
  const ms = pick(starts, 'ms');
  const cpu = median(pick(starts, 'cpuMs')).toFixed(0);
  const rss = median(pick(starts, 'rssMb')).toFixed(0);
  const peak = Math.max(...pick(starts, 'peakMb')).toFixed(0);
  const time = `${median(ms).toFixed(0)} ms median (${spread(ms, 0, ' ms')})`;
  return `  ${count(changes)}${time}, CPU ${cpu} ms; ${rss} MB resident listening, ${peak} MB at the peak`;
}

const starts = await measureStarts();
const startMs = median(pick(starts.large, 'ms'));
const peakMb = Math.max(...pick(starts.large, 'peakMb'));
const startRatio = startMs / median(pick(starts.small, 'ms'));
const peakRatio = peakMb / Math.max(...pick(starts.small, 'peakMb'));
const pages = await measureLatency();
const ratio = median(pages.ratios);
const latencyLine = (changes: number, values: number[]) =>
  `  ${count(changes)}${median(values).toFixed(3)} ms median (${spread(values, 3, ' ms')})`;

console.log(
  [
    `npm run mock -- --changes N, until it listens, ${STARTS} interleaved starts of each:`,
    startLine(SMALL, starts.small),
    startLine(LARGE, starts.large),
    `  ratio             ${startRatio.toFixed(2)}x the start time, ${peakRatio.toFixed(2)}x the peak memory`,
    `  heap with ${count(LARGE).trim()}: ${mb(pages.heap.heapUsed)} MB of ${mb(pages.heap.rss)} MB resident`,
    `Page latency, full page, median request on 1 kept-alive connection, ${ROUNDS} rounds of ${SECONDS} s:`,
    latencyLine(SMALL, pages.small),
    latencyLine(LARGE, pages.large),
    `  ratio             ${ratio.toFixed(2)}x, median of ${pages.ratios.map((r) => r.toFixed(2)).join(' ')}`,
    'Goals:',
    `  start at most ${GOALS.startMs} ms   ${verdict(startMs <= GOALS.startMs)} (${startMs.toFixed(0)} ms)`,
    `  memory at most ${GOALS.rssMb} MB   ${verdict(peakMb <= GOALS.rssMb)} (${peakMb.toFixed(0)} MB peak)`,
    `  latency at most ${GOALS.latency}x   ${verdict(ratio <= GOALS.latency)} (${ratio.toFixed(2)}x)`,
  ].join('\n'),
);

if (startMs > GOALS.startMs || peakMb > GOALS.rssMb || ratio > GOALS.latency) process.exitCode = 1;
