import { LIMITS } from '../behaviour.ts';
import { switches } from '../faults/fault.ts';
import { htmlErrors } from '../handlers/html-errors.ts';
import { fail } from '../handlers/respond.ts';
import type { Behaviour } from './profile.ts';

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
      return seen.document === 'images' ? htmlErrors(response) : response;
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
    // A switch: met where a side past the contract's limit was served, which the clean service refuses.
    changed: (request, response, seen) =>
      seen.document === 'images' &&
      response.status < 400 &&
      Math.max(...['width', 'height'].map((side) => Number(request.query.get(side) ?? 0))) *
        Number(request.query.get('dpr') ?? 1) >
        LIMITS.imageMaxSide,
  },
];
