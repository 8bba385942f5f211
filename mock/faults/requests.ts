import type { MockRequest } from '../types.ts';
import type { Json } from './fault.ts';

/**
 * The request with its parsed query changed, as a service that rewrites parameters before its
 * handler would see it. `rawQuery`, which `requestUrl` echoes, stays as the client sent it.
 */
export function withQuery(request: MockRequest, change: (query: URLSearchParams) => void): MockRequest {
  const query = new URLSearchParams(request.query);
  change(query);
  return { ...request, query };
}

/** The JSON body of a request, or undefined when it has none or it is not JSON. */
export function jsonBody(request: MockRequest): Json | undefined {
  try {
    const body: unknown = JSON.parse(request.body?.toString('utf8') ?? '');
    return typeof body === 'object' && body !== null ? (body as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The `next` link of a feed page, to change in place. */
export function nextOf(body: Json): Json | undefined {
  return (body.links as Json[] | undefined)?.find((link) => link.rel === 'next');
}
