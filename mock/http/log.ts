import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasKeyParameter, maskedTarget } from '../key-in-query.ts';
import { toTimestamp } from '../state/clock.ts';

/** One request, as logged: no key or token, whether sent in a header or the query. */
export interface RequestLogEntry {
  /** When the request arrived, ISO 8601. */
  time: string;
  scheme: 'https' | 'http';
  method: string;
  /** Path and query as requested, with the value of any `apiKey` parameter masked. */
  path: string;
  status: number;
  /** From arrival to the last byte sent, in milliseconds. */
  ms: number;
  /** The faults in force for this request: switched on, and asked for with `Prefer`. */
  faults: string[];
  /** Where the request carried credentials (`X-Api-Key`, `apiKey`, `Authorization`): names, never values. */
  credentials: string[];
}

/** Where a request carries credentials, by name. */
function credentialsOf(req: IncomingMessage): string[] {
  return [
    ...(req.headers['x-api-key'] !== undefined ? ['X-Api-Key'] : []),
    ...(hasKeyParameter(req.url ?? '') ? ['apiKey'] : []),
    ...(req.headers.authorization !== undefined ? ['Authorization'] : []),
  ];
}

/** Hands `onRequest` the entry of this request once its answer has been sent (or the socket closed). */
export function logRequest(
  onRequest: (entry: RequestLogEntry) => void,
  req: IncomingMessage,
  res: ServerResponse,
  secure: boolean,
  faults: string[],
): void {
  const started = performance.now();
  const time = toTimestamp(Date.now());
  const credentials = credentialsOf(req);
  res.once('close', () =>
    onRequest({
      time,
      scheme: secure ? 'https' : 'http',
      method: req.method ?? '',
      path: maskedTarget(req.url ?? '/'),
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
      faults,
      credentials,
    }),
  );
}
