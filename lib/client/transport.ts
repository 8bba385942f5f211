import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * One HTTP exchange on the wire, bounded: a deadline for the whole answer, body included, and a cap
 * on the bytes read before and after decompression. Node's own HTTP, so nothing else keeps a log of
 * what a request carried (Playwright's request context writes headers into its call log on errors).
 */

export type TransportFailure =
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'tls'
  | 'too large'
  | 'network'
  /** An answer came, but its body is not in the Content-Encoding it claims: the service's defect. */
  | 'undecodable';

/** No complete answer came: the message names what happened and never what the request carried. */
export class TransportError extends Error {
  constructor(
    readonly kind: TransportFailure,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** How the message is framed where HTTP/1.1 allows more than one way (RFC 9112 §3.2.2, §7.1). */
  framing?: { absoluteForm?: boolean | undefined; chunked?: boolean | undefined };
  insecureTls: boolean;
  timeoutMs: number;
  maxBytes: number;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  /** Milliseconds from sending to the whole answer, set by the client that sent it. */
  ms?: number;
}

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function classify(error: NodeJS.ErrnoException): TransportError {
  if (error instanceof TransportError) return error;
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return new TransportError('refused', 'the connection was refused');
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up|aborted/i.test(error.message))
    return new TransportError('reset', 'the connection was reset before a complete answer');
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(`${code} ${error.message}`))
    return new TransportError('tls', `the TLS handshake failed (${code || error.message.slice(0, 80)})`);
  if (code === 'Z_DATA_ERROR')
    return new TransportError('undecodable', 'the body is not in the Content-Encoding it claims');
  if (code === 'Z_BUF_ERROR') return new TransportError('network', 'the compressed body ended early');
  return new TransportError('network', `the request failed (${code || error.message.slice(0, 80)})`);
}

/**
 * The body as its Content-Encoding says. An answer to HEAD, a 204 or a 304 has no body, whatever
 * encoding its headers name (they describe GET's body): nothing to decode.
 */
function decoded(response: IncomingMessage, method: string): Readable {
  const bodiless = method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304;
  if (bodiless) return response;
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

function flatHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

/** The answer's body, bounded and decoded, then `finish`: the only way a response ends. */
function readAnswer(
  response: IncomingMessage,
  wire: WireRequest,
  finish: (error: Error | undefined, response?: WireResponse) => void,
): void {
  const chunks: Buffer[] = [];
  let raw = 0;
  let read = 0;
  const tooLarge = () =>
    finish(
      new TransportError('too large', `the body is larger than ${wire.maxBytes} bytes (CLM_MAX_BODY_BYTES)`),
    );
  response.on('data', (chunk: Buffer) => {
    raw += chunk.length;
    if (raw > wire.maxBytes) tooLarge();
  });
  const stream = decoded(response, wire.method);
  stream.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > wire.maxBytes) {
      tooLarge();
      stream.destroy();
      response.destroy();
    } else chunks.push(chunk);
  });
  stream.on('error', (error) => finish(error));
  response.on('error', (error) => finish(error));
  response.on('aborted', () => finish(new TransportError('reset', 'the answer was cut off')));
  stream.on('end', () =>
    finish(undefined, {
      status: response.statusCode ?? 0,
      headers: flatHeaders(response),
      bytes: Buffer.concat(chunks),
    }),
  );
}

const DEFAULT_HEADERS = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'clm-conformance',
};

/** Methods that change nothing, whose request may be sent again. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sendOnWire(wire: WireRequest): Promise<WireResponse> {
  return exchange(wire, false, performance.now() + wire.timeoutMs);
}

/** One exchange, on a kept-alive connection unless `fresh`, answered whole by `deadline` or failed. */
function exchange(wire: WireRequest, fresh: boolean, deadline: number): Promise<WireResponse> {
  const url = new URL(wire.url);
  const secure = url.protocol === 'https:';
  const body = wire.body === undefined ? undefined : Buffer.from(wire.body);
  // Names go as the request writes them (their case is a form the service must take, RFC 9110 §5.1);
  // a default gives way to the request's own header of any case.
  const given = new Set(Object.keys(wire.headers).map((k) => k.toLowerCase()));
  const defaults = Object.entries(DEFAULT_HEADERS).filter(([k]) => !given.has(k));
  const chunked = body !== undefined && wire.framing?.chunked === true;
  const headers: Record<string, string> = {
    ...Object.fromEntries(defaults),
    ...wire.headers,
    ...(body
      ? { [chunked ? 'transfer-encoding' : 'content-length']: chunked ? 'chunked' : String(body.length) }
      : {}),
  };
  // The absolute-form names the origin in the request line itself; Host still says it (RFC 9112 §3.2.2).
  const path = wire.framing?.absoluteForm ? `${url.origin}${url.pathname}${url.search}` : undefined;
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    let answered = false;
    const finish = (error: Error | undefined, response?: WireResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        request.destroy();
        reject(classify(error));
      } else resolve(response!);
    };
    const request = send(
      url,
      {
        method: wire.method,
        headers,
        ...(path ? { path } : {}),
        agent: fresh ? false : secure ? agents.https : agents.http,
        ...(secure ? { rejectUnauthorized: !wire.insecureTls } : {}),
      },
      (response) => {
        answered = true;
        readAnswer(response, wire, finish);
      },
    );
    const timer = setTimeout(
      () =>
        finish(
          new TransportError('timeout', `no complete answer within ${(wire.timeoutMs / 1000).toFixed(1)} s`),
        ),
      Math.max(0, deadline - performance.now()),
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection that the server closed while it sat idle (its keep-alive timeout)
      // resets the next request sent on it before any answer: that request never reached the
      // service. Sent once more, on a new connection, as Node's documentation advises; only a
      // method that changes nothing, in case it did reach it.
      const idempotent = IDEMPOTENT.has(wire.method.toUpperCase());
      if (
        !fresh &&
        !answered &&
        !settled &&
        idempotent &&
        request.reusedSocket &&
        error.code === 'ECONNRESET'
      ) {
        settled = true;
        clearTimeout(timer);
        resolve(exchange(wire, true, deadline));
      } else finish(error);
    });
    // Written apart from `end`, a chunked body goes in chunks: `end(body)` would count it.
    if (chunked) {
      request.write(body);
      request.end();
    } else request.end(body);
  });
}
