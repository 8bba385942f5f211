import fc from 'fast-check';
import { atMostRuns } from '../../lib/arbitraries/index.ts';
import { says } from '../../lib/claims.ts';
import { expect, test } from '../fixtures.ts';
import {
  ASKED,
  decoded,
  FITS,
  image,
  MAX_PIXELS,
  MAX_SIDE,
  MAX_SOURCE_BYTES,
  mediaType,
  mode,
  QUALITIES,
  raw,
  promisedBy,
} from './images-support.ts';

/**
 * Past 65,000 a side (dpr counted), a live service is held to no 5xx only: the real service's code
 * sets no bound on a side (IMG-07, live). The mock refuses it, as the interface's limit says.
 */
const pastSide = (sides: number[]) => Math.max(...sides) > MAX_SIDE;

test.describe('image service v2: the limits at their edges and one past them', () => {
  test('each limit at its edge is served; one past it gets a 4xx, never a 5xx @IMG-07', async ({
    api,
    target,
    decided,
  }) => {
    const uri = image(target);
    // width x height @ dpr: past each limit (65,000 a side, 26,214,400 pixels, dpr counted), then at it.
    const edges = ['65000x1@1', '1x65000@1', '5120x5120@1', '2560x2560@2'];
    const past = ['65001x1@1', '1x65001@1', '5120x5121@1', '2560x2561@2', '4000x4000@2'];
    for (const size of [...past, ...edges])
      for (const operation of ['getImageRaw', 'getImageMetadata']) {
        const [width, height, dpr] = size.split(/[x@]/);
        const query = { width, height, dpr, fit: 'fill', format: 'jpg', quality: 'lowest' };
        const response = await mode(api, operation, uri, query, { checks: 'safety', decides: ['IMG-07'] });
        const { status } = response;
        const what = `${operation} ${size}: ${status}`;
        const sides = [Number(width), Number(height)].map((side) => side * Number(dpr));
        // At the edge, a live service may still refuse, with its documented 400; a refusal that
        // names another parameter is that parameter's rule's.
        const at = { operation, field: 'width, height, dpr', case: size };
        if (edges.includes(size))
          decided('image-edge-size', status, {
            ...at,
            rules: promisedBy(operation, query, response, 'IMG-07'),
          });
        else if (pastSide(sides)) decided('image-side-past-limit', status, at);
        else expect(status >= 400 && status < 500, what).toBe(true);
      }
  });

  test('a source of 20 MB is read; one byte more gets a 4xx @IMG-07', async ({ api, mock }) => {
    const sources = [...mock.state.images.values()];
    for (const [bytes, status] of [
      [MAX_SOURCE_BYTES, 200],
      [MAX_SOURCE_BYTES + 1, 400],
    ] as const) {
      const uri = sources.find((source) => source.bytes === bytes)!.uri;
      for (const operation of ['getImageRaw', 'getImageMetadata']) {
        const response = await mode(
          api,
          operation,
          uri,
          { width: '100' },
          { checks: 'safety', decides: ['IMG-07'] },
        );
        expect(response.status, `${operation}, a source of ${bytes} bytes`).toBe(status);
      }
    }
  });
});

test.describe('image service v2: any query, the image asked within the limits, a 4xx past them', () => {
  test('any size, dpr, quality, format and fit: never a 5xx; a 200 is the image asked, within the limits @IMG-01 @IMG-07 @property', async ({
    api,
    target,
    fcParams,
    decided,
  }) => {
    const uri = image(target);
    // Mostly sizes made in milliseconds; now and then one far past a limit, refused before any work.
    const small = (max: number) => fc.integer({ min: 1, max });
    const side = fc.oneof({ weight: 6, arbitrary: small(300) }, fc.integer({ min: 65_001, max: 10 ** 6 }));
    const dpr = fc.oneof({ weight: 6, arbitrary: small(3) }, fc.integer({ min: 30_000, max: 10 ** 6 }));
    const pick = (all: string[]) => fc.constantFrom(...all);
    const queries = fc
      .record(
        {
          width: side,
          height: side,
          dpr,
          quality: pick(QUALITIES),
          format: pick(Object.keys(ASKED)),
          fit: pick(FITS),
        },
        { requiredKeys: [] },
      )
      .filter((q) => q.width !== undefined || q.height !== undefined);
    await fc.assert(
      fc.asyncProperty(queries, async (q) => {
        const query = Object.fromEntries(Object.entries(q).map(([name, value]) => [name, String(value)]));
        const response = await raw(api, uri, query, { checks: 'safety' });
        const what = `${JSON.stringify(q)}: ${response.status}`;
        expect(response.status, what).toBeLessThan(500);
        // A side past the limit served: decided against; live, held to no 5xx alone.
        const served = response.status === 200;
        const sides = [q.width ?? 0, q.height ?? 0].map((s) => s * (q.dpr ?? 1));
        const at = { operation: 'getImageRaw', field: 'width, height, dpr', case: 'a size drawn', what };
        if (served && pastSide(sides) && decided('image-side-past-limit', 200, at) === 'other') return;
        const over = [q.width, q.height].some((s) => s !== undefined && s > MAX_SIDE) || (q.dpr ?? 1) > 3;
        // Refused: only what is past a limit, or SVG made of a raster image.
        // Each assertion says its rule: a refusal, the rule of the parameter it names, else the limits.
        const refusedBy = promisedBy('getImageRaw', query, response, 'IMG-07');
        if (response.status !== 200)
          return expect(over || q.format === 'svg', says(refusedBy, what)).toBe(true);
        expect(over, says('IMG-07', `${what}: past a limit, yet served`)).toBe(false);
        const { mediaType: read, size } = await decoded(response);
        expect(read, says('IMG-01', what)).toBe(mediaType(response.headers));
        expect(ASKED[q.format ?? 'auto'], says('IMG-02', what)).toContain(mediaType(response.headers));
        const [width, height] = size as [number, number];
        const within = Math.max(width, height) <= MAX_SIDE && width * height <= MAX_PIXELS;
        expect(within, says('IMG-07', what)).toBe(true);
        if (q.width && q.height && ['cover', 'fill', 'pad'].includes(q.fit ?? 'cover'))
          expect(size, says('IMG-01', what)).toEqual([q.width * (q.dpr ?? 1), q.height * (q.dpr ?? 1)]);
      }),
      atMostRuns(fcParams, 25),
    );
  });
});
