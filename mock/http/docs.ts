import { realpathSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.woff2': 'font/woff2',
};

const DOCS_PATH = /^\/docs(?:[/?]|$)/;

/** The static docs of `dir` under `/docs/`: whether a request target is theirs, and the serving. */
export interface Docs {
  owns(target: string): boolean;
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** Serves `dir` (what `npm run docs` writes) under `/docs/`; none when `dir` is absent. */
export function docsServer(dir: string | undefined): Docs | undefined {
  if (dir === undefined) return undefined;
  const root = realpathSync(resolve(dir));
  return { owns: (target) => DOCS_PATH.test(target), serve: (req, res) => serveDocs(root, req, res) };
}

/** Serves `/docs/…` from `root`: GET and HEAD only, never a file outside `root`. */
async function serveDocs(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  const reply = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
    const bytes = typeof body === 'string' ? Buffer.from(JSON.stringify({ message: body })) : body;
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      ...headers,
      'Content-Length': String(bytes.length),
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return reply(405, `Method ${req.method} is not allowed here`, { Allow: 'GET, HEAD' });
  const pathname = (req.url ?? '/').split('?', 1)[0]!;
  if (pathname === '/docs') return reply(301, 'See /docs/', { Location: '/docs/' });
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice('/docs/'.length));
  } catch {
    return reply(400, 'The path holds a malformed percent-escape');
  }
  if (relative.includes('\0') || relative.split(/[\\/]/).includes('..'))
    return reply(400, 'The path may not leave /docs/');
  if (relative === '' || relative.endsWith('/')) relative += 'index.html';
  try {
    // The real path too: a link inside the folder must not lead out of it.
    const file = await realpath(resolve(root, relative));
    if (!file.startsWith(root + sep) || !(await stat(file)).isFile()) throw new Error('not a file');
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    reply(200, await readFile(file), { 'Content-Type': type, 'Cache-Control': 'no-cache' });
  } catch {
    reply(404, 'No such page in the docs');
  }
}
