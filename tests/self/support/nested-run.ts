import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { liveEnvFor } from '../../../mock/live-env.ts';
import type { Mock } from '../../../mock/server.ts';
import { playwrightArgs } from './commands.ts';

export interface NestedRunOptions {
  /** Added to (and overriding) this process's environment. */
  env?: Record<string, string | undefined>;
  /** More arguments for `playwright` (`-g`, files). */
  args?: string[];
  /** Where the run writes: `<dir>/reports` and `<dir>/test-results`. */
  dir: string;
  /** The run is killed after this long (default 10 minutes). */
  timeoutMs?: number;
}

export interface NestedRun {
  /** The exit status; null when the run was killed (its timeout) or could not start. */
  status: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  /** Every file the run wrote under `dir`. */
  files: string[];
}

const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * Runs `playwright test` for one project in a child process, its output kept under `dir`.
 * Asynchronous on purpose: the servers a self-test starts live in this process and must keep
 * answering while the nested run talks to them (spawnSync would block them).
 */
export function runPlaywright(project: string, options: NestedRunOptions): Promise<NestedRun> {
  return playwright(
    ['test', `--project=${project}`, `--output=${join(options.dir, 'test-results')}`],
    options,
  );
}

/** `playwright merge-reports` of a folder of blob reports, as the nightly's report job runs it. */
export function mergeReports(blobs: string, options: NestedRunOptions): Promise<NestedRun> {
  return playwright(['merge-reports', '--config', 'playwright.config.ts', blobs], options);
}

function playwright(args: string[], options: NestedRunOptions): Promise<NestedRun> {
  const started = Date.now();
  // Its own process group, so a timeout ends the workers too, and only them.
  const child = spawn(process.execPath, playwrightArgs([...args, ...(options.args ?? [])]), {
    env: { ...process.env, CLM_REPORTS_DIR: join(options.dir, 'reports'), ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', kill);
  const output = { stdout: '', stderr: '' };
  for (const name of ['stdout', 'stderr'] as const)
    child[name].on('data', (chunk: Buffer) => {
      if (output[name].length < MAX_OUTPUT) output[name] += chunk.toString('utf8');
    });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs ?? 600_000);
  return new Promise((resolve) => {
    const finish = (status: number | null, error?: Error) => {
      clearTimeout(timer);
      process.removeListener('exit', kill);
      resolve({
        status: timedOut ? null : status,
        stdout: output.stdout,
        stderr: output.stderr + (error ? `\n${error.message}` : ''),
        seconds: (Date.now() - started) / 1000,
        files: existsSync(options.dir) ? files(options.dir) : [],
      });
    };
    child.once('error', (error) => finish(null, error));
    child.once('close', (code) => finish(code));
  });
}

/** The conformance suite as a nested run against a live target (`CLM_TARGET=live`, project `live`). */
export function runLive(options: NestedRunOptions): Promise<NestedRun> {
  return runPlaywright('live', { ...options, env: { CLM_TARGET: 'live', ...options.env } });
}

/** A bundled mock's live settings, reached through a proxy in front of it: the proxy's URLs instead. */
export function envThroughProxy(
  mock: Mock,
  proxy: { baseUrl: string; httpBaseUrl: string; imagesUrl: string },
): Record<string, string> {
  return {
    ...liveEnvFor(mock),
    CLM_BASE_URL: proxy.baseUrl,
    CLM_HTTP_BASE_URL: proxy.httpBaseUrl,
    CLM_IMAGE_BASE_URL: proxy.imagesUrl,
  };
}

/** Every file under a folder, recursively. */
export function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The data of every entry of a zip, from its central directory (no ZIP64: reports are small). */
export function zipEntries(zip: Buffer): Buffer[] {
  const end = zip.lastIndexOf('PK\x05\x06');
  if (end === -1 || end + 22 > zip.length) return [];
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Buffer[] = [];
  for (let i = 0; i < count && at + 46 <= zip.length; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    entries.push(method === 8 ? inflateRawSync(data) : data);
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The text of every entry of a zip (Playwright's HTML report embeds one, base64, in its page). */
export function zipTexts(zip: Buffer): string[] {
  return zipEntries(zip).map((entry) => entry.toString('utf8'));
}

const GZIP = Buffer.from([0x1f, 0x8b]);
const MAX_INFLATED = 256 * 1024 * 1024;

/** The texts inside some bytes: themselves, an embedded base64 zip, zip entries, gzip; nested a few deep. */
function texts(bytes: Buffer, depth: number): string[] {
  const text = bytes.toString('utf8');
  const found = [text];
  if (depth > 3) return found;
  const inner: Buffer[] = [];
  for (const match of text.matchAll(/data:application\/zip;base64,([A-Za-z0-9+/=]+)/g))
    inner.push(...zipEntries(Buffer.from(match[1]!, 'base64')));
  if (bytes.subarray(0, 4).toString('latin1') === 'PK\x03\x04') inner.push(...zipEntries(bytes));
  if (bytes.subarray(0, 2).equals(GZIP)) inner.push(gunzipSync(bytes, { maxOutputLength: MAX_INFLATED }));
  for (const entry of inner) found.push(...texts(entry, depth + 1));
  return found;
}

/** Every text a file holds, including each entry of zips (embedded in HTML or not) and gzipped data. */
function readableTexts(path: string): string[] {
  return texts(readFileSync(path), 0);
}

/**
 * Where each named secret appears in what a run wrote (zips and gzip inside files included) or
 * printed: `the key in <path>`, `the token in the output`. One list, one check: an expect a file
 * would be a step of the test each, thousands for a run's report.
 */
export function secretsIn(run: NestedRun, secrets: Record<string, string>): string[] {
  const found = (text: string, where: string) =>
    Object.entries(secrets)
      .filter(([, value]) => text.includes(value))
      .map(([name]) => `the ${name} in ${where}`);
  return [
    ...run.files.flatMap((path) => readableTexts(path).flatMap((text) => found(text, path))),
    ...found(run.stdout, 'the output'),
    ...found(run.stderr, 'the output'),
  ];
}
