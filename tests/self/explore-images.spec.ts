import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { loadContract } from '../../lib/contract/index.ts';
import { validRequests } from '../../lib/explore/index.ts';
import { OUTPUT_PIXELS, readableBounds } from '../../lib/explore/property.ts';

const contract = await loadContract();

// A drawn image request that succeeds is read whole: a 20-megapixel lossless PNG (seed 626264264,
// width 2, height 12, dpr 924) is larger than the client's body bound, and failed a clean run.
// The bound is the run's own (CLM_MAX_BODY_BYTES): the default, and a run that sets 1 MiB.
for (const maxBodyBytes of [undefined, 1024 * 1024])
  test(`the property draws no image request whose answer, if it succeeds, is too large to read (body bound ${maxBodyBytes ?? 'default'}) @IMG-01`, () => {
    const bounds = readableBounds(maxBodyBytes);
    // What a lossless answer of that many pixels weighs: within the bound.
    expect(bounds.pixels * 4).toBeLessThan(maxBodyBytes ?? 16 * 1024 * 1024);
    for (const operation of ['getImageRaw', 'getImageMetadata'].filter((id) => contract.operations.has(id))) {
      const options = { now: Date.now(), mode: 'mock' as const, seed: 7, maxBodyBytes };
      const drawn = fc.sample(validRequests(contract, operation, options), { numRuns: 3_000, seed: 7 });
      let [large, near] = [0, 0];
      for (const { request } of drawn) {
        const dpr = Number(request.query.dpr ?? 1);
        const [width, height] = [request.query.width, request.query.height].map((v) =>
          v === undefined ? undefined : Number(v) * dpr,
        );
        if (width === undefined || height === undefined) {
          const side = width ?? height;
          // Asked only where it fails: an expect is a step of the test, and 3,000 are drawn.
          if (side !== undefined && side <= OUTPUT_PIXELS && side > bounds.side)
            expect(side, JSON.stringify(request.query)).toBeLessThanOrEqual(bounds.side);
          continue;
        }
        const pixels = width * height;
        if (pixels > OUTPUT_PIXELS) large++;
        else if (pixels > bounds.pixels)
          expect(pixels, JSON.stringify(request.query)).toBeLessThanOrEqual(bounds.pixels);
        if (pixels <= bounds.pixels && pixels > bounds.pixels / 4) near++;
      }
      // Boxes past the output limit are still drawn: the refusal they are owed stays explored; and
      // sizes near the bound too: the filter keeps what the client can read.
      expect(large, operation).toBeGreaterThan(0);
      expect(near, operation).toBeGreaterThan(0);
    }
  });
