import { STATUS_CODES } from 'node:http';
import { PendingBytes, type MockResponse } from '../types.ts';
import { untransformable } from './respond.ts';

/**
 * Errors of the image service as HTML pages, as the real service writes every one of them: the
 * twin always, the clean mock when a client prefers HTML (a browser that opens an image URL).
 */

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** An error as a small HTML page that says what JSON would have, its other headers (`Allow`) kept. */
function asHtml(response: MockResponse): MockResponse {
  const { body, status } = response;
  const said =
    typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  const message = typeof said === 'string' ? `<p>${escape(said)}</p>` : '';
  const page = `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${message}</body></html>`;
  return {
    ...response,
    headers: { ...response.headers, 'Content-Type': 'text/html; charset=utf-8' },
    body: Buffer.from(page),
  };
}

/** An answer of the image service with its error as HTML: now, or when its image fails to be made. */
export function htmlErrors(response: MockResponse): MockResponse {
  if (response.status >= 400) return asHtml(response);
  if (!(response.body instanceof PendingBytes)) return response;
  const failed = response.failed ?? untransformable;
  return { ...response, failed: (reason) => asHtml(failed(reason)) };
}

/** The weight an Accept header gives a media type: its own entry, else its type's `/*`, else `*\/*`. */
function weight(accept: string, type: string): number {
  const entries = accept.split(',').map((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { range, q: q === undefined ? 1 : Number(q.slice(2)) || 0 };
  });
  const [major] = type.split('/');
  for (const range of [type, `${major}/*`, '*/*']) {
    const found = entries.find((e) => e.range === range);
    if (found) return found.q;
  }
  return 0;
}

/** Whether a client's Accept prefers an HTML page to JSON (RFC 9110 §12.5.1): a browser's does. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = weight(accept, 'text/html');
  return html > 0 && html > weight(accept, 'application/json');
}
