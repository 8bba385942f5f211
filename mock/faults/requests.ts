import type { Context, MockRequest, MockResponse } from '../types.ts';
import { onStatus, rewrite, type Fault, type Json, type Step } from './fault.ts';

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

/** A step that changes the next link of a feed page (200) as a URL, seeing the page and its context. */
export function onNextLink(change: (url: URL, page: Json, context: Context) => void): Step['apply'] {
  return rewrite(['listNotifications'], (response, request, context) =>
    onStatus(200, (body) => {
      const link = nextOf(body);
      if (!link || !context) return;
      // A fault may have made the link relative: read it against the origin, write it back as it was.
      const href = String(link.href);
      const url = new URL(href, context.request.origin);
      change(url, body, context);
      link.href = URL.canParse(href) ? url.toString() : `${url.pathname}${url.search}${url.hash}`;
    })(response, request, context),
  );
}

/** How many notifications a feed page holds: none when a fault has made them something else. */
export function countOf(page: Json): number {
  return Array.isArray(page.notifications) ? page.notifications.length : 0;
}

/** A step that answers `instead` where the clean answer to the operation was a success and `when` holds. */
export function onSuccess(
  operations: readonly string[],
  when: (request: MockRequest, params: Record<string, string>) => boolean,
  instead: MockResponse,
): Fault['apply'] {
  return (request, next, seen) => {
    const response = next(request);
    const context = seen.context;
    if (!context || !operations.includes(context.operation.id) || response.status >= 300) return response;
    return when(request, context.pathParams) ? instead : response;
  };
}
