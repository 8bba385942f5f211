import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../../../lib/paths.ts';

// node with tsx's loader, not the tsx command: the mock is then one process to stop, and its
// options reach it untouched.
const NODE_ARGS = [
  '--import',
  pathToFileURL(projectPath('node_modules/tsx/dist/esm/index.mjs')).href,
  projectPath('mock/cli.ts'),
];
export const KEY = 'mock-key-primary';

export interface RunningCli {
  banner: string;
  /** The HTTPS and plain-HTTP base URLs the banner names. */
  https: string;
  http: string;
  stop(): Promise<void>;
}

/** `npm run mock` in a directory of its own, on free ports, once it has printed its banner. */
export async function startCli(cwd: string, ...args: string[]): Promise<RunningCli> {
  const child = spawn(process.execPath, [...NODE_ARGS, '--port', '0', '--http-port', '0', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${output}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Ctrl-C stops it.')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.once('exit', (code) =>
        reject(new Error(`the mock exited (${code}) before its banner:\n${output}`)),
      );
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const url = (label: string) => new RegExp(`^ {2}${label} +(\\S+)`, 'm').exec(output)?.[1] ?? '';
  return { banner: output, https: url('HTTPS'), http: url('HTTP'), stop };
}

/** The banner alone: the mock stopped once it has printed it. */
export async function mockBanner(cwd: string, ...args: string[]): Promise<string> {
  const mock = await startCli(cwd, ...args);
  await mock.stop();
  return mock.banner;
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request, the path sent exactly as written (no `..` resolved), the self-signed certificate accepted. */
export function send(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Reply> {
  const { protocol, hostname, port } = new URL(base);
  const request = protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method, headers, rejectUnauthorized: false, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}
