import { STATUS_CODES } from 'node:http';
import { switches } from '../faults/fault.ts';
import { fail, untransformable } from '../handlers/respond.ts';
import { PendingBytes, type MockResponse } from '../types.ts';
import type { Behaviour } from './profile.ts';

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** An error as the image service writes it: a small HTML page, its other headers (`Allow`) kept. */
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

/** The image service as its code, its API page and its migration page describe it. */
export const IMAGE_BEHAVIOURS: Behaviour[] = [
  {
    name: 'image-errors-html',
    description:
      'Every error of the image service (any status from 400 on, on any path under it, an image ' +
      'that fails to be made included) is text/html; charset=utf-8 with a small HTML page.',
    source: "The image service's code and its captured answers: its error pages are HTML.",
    apply: (request, next, seen) => {
      const response = next(request);
      if (seen.document !== 'images') return response;
      if (response.status >= 400) return asHtml(response);
      if (!(response.body instanceof PendingBytes)) return response;
      const failed = response.failed ?? untransformable;
      return { ...response, failed: (reason) => asHtml(failed(reason)) };
    },
  },
  {
    name: 'image-source-required',
    description:
      'An image request without the source query parameter (the calling system, empty counts as ' +
      'none) gets 400 on every image route, whatever else it asks.',
    source: "The image service's code: source is required on every route.",
    apply: (request, next, seen) => {
      const response = next(request);
      const { context } = seen;
      if (context?.document !== 'images' || request.query.get('source')) return response;
      return fail(context, 400, 'The source parameter is required: name the calling system');
    },
  },
  {
    name: 'image-no-side-limit',
    description:
      'Width and height above 65,000 are not refused for their side alone; the 25-megapixel limit ' +
      'of the output still is (400).',
    source:
      "The image service's code sets no upper bound on width or height (its API page says 65,500, " +
      'its migration page 65,000); the 25 MP output cap is enforced downstream.',
    apply: switches({ sideLimitUnchecked: true }),
  },
];
