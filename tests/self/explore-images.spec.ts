import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { loadContract } from '../../lib/contract/index.ts';
import { validRequests } from '../../lib/explore/index.ts';
import { OUTPUT_PIXELS, READABLE_PIXELS, READABLE_SIDE } from '../../lib/explore/property.ts';

const contract = await loadContract();

// A drawn image request that succeeds is read whole: a 20-megapixel lossless PNG (seed 626264264,
// width 2, height 12, dpr 924) is larger than the client's body bound, and failed a clean run.
test('the property draws no image request whose answer, if it succeeds, is too large to read @IMG-01', () => {
  for (const operation of ['getImageRaw', 'getImageMetadata'].filter((id) => contract.operations.has(id))) {
    const drawn = fc.sample(validRequests(contract, operation, { now: Date.now(), mode: 'mock', seed: 7 }), {
      numRuns: 3_000,
      seed: 7,
    });
    let large = 0;
    for (const { request } of drawn) {
      const dpr = Number(request.query.dpr ?? 1);
      const [width, height] = [request.query.width, request.query.height].map((v) =>
        v === undefined ? undefined : Number(v) * dpr,
      );
      if (width === undefined || height === undefined) {
        const side = width ?? height;
        if (side !== undefined && side <= OUTPUT_PIXELS)
          expect(side, JSON.stringify(request.query)).toBeLessThanOrEqual(READABLE_SIDE);
        continue;
      }
      const pixels = width * height;
      if (pixels > OUTPUT_PIXELS) large++;
      else expect(pixels, JSON.stringify(request.query)).toBeLessThanOrEqual(READABLE_PIXELS);
    }
    // Boxes past the output limit are still drawn: the refusal they are owed stays explored.
    expect(large, operation).toBeGreaterThan(0);
  }
});
