import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createGunzip } from 'node:zlib';

export interface ProbeOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Give up after this long; what came so far is returned. */
  timeoutMs?: number;
  /** Stop reading after this many bytes (after gunzip when `gunzip` is set). */
  maxBytes?: number;
  /** Inflate a gzip body on the fly, so a bomb is read only as far as `maxBytes`. */
  gunzip?: boolean;
  /** Trust only this certificate (and verify the name); without it any certificate is accepted. */
  ca?: string;
}

export interface ProbeResult {
  status?: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body ended as the server meant it to. */
  ended: boolean;
  /** `maxBytes` were read and the connection was dropped. */
  truncated: boolean;
  timedOut: boolean;
  /** The error code of a failed request (ECONNRESET, ECONNREFUSED, ERR_TLS_…). */
  error?: string;
  /** Time to the response headers, and to the end of the probe. */
  headersMs?: number;
  ms: number;
}

/** One bounded request for self-tests: it never waits or reads more than it is told. */
export function probe(url: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const { timeoutMs = 2_000, maxBytes = 1024 * 1024 } = options;
  const started = Date.now();
  const chunks: Buffer[] = [];
  let size = 0;
  const result: ProbeResult = {
    headers: {},
    body: Buffer.alloc(0),
    ended: false,
    truncated: false,
    timedOut: false,
    ms: 0,
  };
  return new Promise((resolve) => {
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      result.body = Buffer.concat(chunks);
      result.ms = Date.now() - started;
      outgoing.destroy();
      resolve(result);
    };
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const outgoing = send(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
        ...(url.startsWith('https:')
          ? options.ca
            ? { ca: options.ca, rejectUnauthorized: true }
            : { rejectUnauthorized: false }
          : {}),
      },
      (res) => {
        result.status = res.statusCode;
        result.headers = res.headers;
        result.headersMs = Date.now() - started;
        const body = options.gunzip ? res.pipe(createGunzip()) : res;
        body.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size < maxBytes) return;
          result.truncated = true;
          settle();
        });
        body.on('end', () => {
          result.ended = true;
          settle();
        });
        body.on('error', (error: NodeJS.ErrnoException) => {
          result.error = error.code ?? error.message;
          settle();
        });
      },
    );
    const timer = setTimeout(() => {
      result.timedOut = true;
      settle();
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      result.error ??= error.code ?? error.message;
      settle();
    });
    outgoing.end(options.body);
  });
}
