// The image service's errors: what a client of the real one meets, and just outside it.
import type { Fault } from './fault.ts';

/** Image service: its errors, each just outside an allowance of a live run (lib/allowances.ts). */
export const IMAGE_ERROR_FAULTS: Fault[] = [
  {
    name: 'image-without-source-500',
    rule: 'HTTP-04',
    kind: 'status',
    description:
      'An image request without source gets 500 where the real service refuses it with 400: just ' +
      'outside the refusal a client of the real service meets.',
    apply: (request, next, seen) => {
      const response = next(request);
      return seen.document === 'images' && !request.query.get('source')
        ? { status: 500, body: { message: 'source is undefined' } }
        : response;
    },
  },
  {
    name: 'image-errors-200',
    rule: 'IMG-05',
    alsoBreaks: ['IMG-04'],
    kind: 'status',
    description:
      'Every error of the image service is answered 200, its body the error it would have been: just ' +
      'outside the HTML error pages of the real service, whose status still says what happened.',
    apply: (request, next, seen) => {
      const response = next(request);
      return seen.document === 'images' && response.status >= 400 ? { ...response, status: 200 } : response;
    },
  },
  {
    name: 'side-past-limit-500',
    rule: 'HTTP-04',
    alsoBreaks: ['IMG-07'],
    kind: 'status',
    description:
      'A width or height above 65,000 gets 500: just outside the real service, which lets such a side ' +
      'through to the 25-megapixel limit and never answers it with a 5xx.',
    apply: (request, next, seen) => {
      const response = next(request);
      const side = (name: string) => Number(request.query.get(name) ?? 0);
      return seen.document === 'images' && Math.max(side('width'), side('height')) > 65_000
        ? { status: 500, body: { message: 'side out of range' } }
        : response;
    },
  },
];
