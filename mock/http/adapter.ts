import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { untransformable } from '../handlers/respond.ts';
import type { Pipeline } from '../pipeline.ts';
import { PendingBytes, RawJson, type MockRequest, type MockResponse } from '../types.ts';

/** The largest request body the mock reads; anything bigger is refused, never buffered. */
export const MAX_BODY_BYTES = 1024 * 1024;

interface Origins {
  secure: boolean;
  origin: () => string;
  httpsOrigin: () => string;
  httpOrigin: () => string;
}

function send(res: ServerResponse, response: MockResponse): void {
  const headers: Record<string, string> = { ...response.headers };
  let parts: Buffer[] = [];
  if (Buffer.isBuffer(response.body)) parts = [response.body];
  else if (response.body !== undefined) {
    parts =
      response.body instanceof RawJson ? response.body.parts : [Buffer.from(JSON.stringify(response.body))];
    headers['Content-Type'] ??= 'application/json; charset=utf-8';
  }
  // A 204 carries no Content-Length (RFC 9110 §8.6); a HEAD answer gives GET's, and node sends no body.
  if (response.status !== 204)
    headers['Content-Length'] = String(parts.reduce((sum, part) => sum + part.length, 0));
  res.writeHead(response.status, headers);
  if (parts.length === 1) return void res.end(parts[0]);
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  res.uncork();
}

function error(status: number, message: string): MockResponse {
  return { status, body: { message } };
}

/**
 * A pending body is awaited before anything is written; work that fails is the request's fault: a 400,
 * or the answer the response names for it.
 */
function sendPending(res: ServerResponse, response: MockResponse, body: PendingBytes): void {
  const reason = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));
  void body
    .bytes()
    .then(
      (bytes) => !res.destroyed && send(res, { ...response, body: bytes }),
      (failure: unknown) =>
        !res.destroyed && send(res, (response.failed ?? untransformable)(reason(failure))),
    )
    .catch(() => res.destroy());
}

/** Header values as one string each: node gives only `set-cookie` as a list, so most need no copy. */
function joined(headers: IncomingMessage['headers']): Record<string, string | undefined> {
  if (headers['set-cookie'] === undefined) return headers as Record<string, string | undefined>;
  const copy: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    copy[name] = Array.isArray(value) ? value.join(', ') : value;
  return copy;
}

/** The pipeline's answer to node's request, with the body read (if any). */
function answer(
  pipeline: Pipeline,
  origins: Origins,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | undefined,
  asked: readonly string[] | undefined,
): void {
  const written = req.url ?? '/';
  // The absolute-form names the origin before the path; a server MUST accept it (RFC 9112 §3.2.2).
  const target = written.replace(/^https?:\/\/[^/?#]*/i, '') || '/';
  if (!target.startsWith('/')) return send(res, error(400, 'The request target must be a path'));
  const at = target.indexOf('?');
  const rawQuery = at === -1 ? '' : target.slice(at + 1);
  const headers = joined(req.headers);
  const request: MockRequest = {
    method: req.method ?? 'GET',
    path: at === -1 ? target : target.slice(0, at),
    query: new URLSearchParams(rawQuery),
    rawQuery,
    target: written,
    headers,
    rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0),
    body,
    secure: origins.secure,
    origin: origins.origin(),
    httpsOrigin: origins.httpsOrigin(),
    httpOrigin: origins.httpOrigin(),
    asked,
  };
  let response: MockResponse;
  try {
    response = pipeline(request);
  } catch (failure) {
    // A defect of the mock, shown as one and logged without leaking details to the client.
    console.error('mock: unexpected error', failure);
    response = error(500, 'The mock failed unexpectedly');
  }
  if (response.body instanceof PendingBytes) return sendPending(res, response, response.body);
  send(res, response);
}

/**
 * node's request → the pipeline's request; the pipeline's response → node's response. Nothing else.
 * A request that declares no body (no Content-Length, no Transfer-Encoding) is answered at once.
 */
export function requestListener(pipeline: Pipeline, origins: Origins) {
  return (req: IncomingMessage, res: ServerResponse, asked?: readonly string[]): void => {
    // No body to read: node drops what is left of the request once the answer is sent.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
      return answer(pipeline, origins, req, res, undefined, asked);
    req.on('error', () => res.destroy());
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        if (!refused) {
          refused = true;
          res.setHeader('Connection', 'close');
          send(res, error(413, `The request body is larger than ${MAX_BODY_BYTES} bytes`));
          req.resume();
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) answer(pipeline, origins, req, res, size > 0 ? Buffer.concat(chunks) : undefined, asked);
    });
  };
}

/**
 * Requests node cannot even parse (bad request lines, headers too large) still get a JSON body,
 * never a bare socket close.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify({ message: tooLarge ? 'Request headers too large' : 'Malformed request' });
    const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
