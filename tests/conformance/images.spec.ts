import { baseMediaType } from '../../lib/contract/index.ts';
import fc from 'fast-check';
import sharp from 'sharp';
import { atMostRuns } from '../../lib/arbitraries/index.ts';
import type { ApiClient, ApiResponse, CallOptions } from '../../lib/client/client.ts';
import { expect, need, needsControl, type TargetFixture, test } from '../fixtures.ts';

const MAX_SIDE = 65_000;
const MAX_PIXELS = 26_214_400;
const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
const FITS = ['cover', 'contain', 'fill', 'scale-down', 'pad'];
const QUALITIES = ['lowest', 'low', 'medium', 'high', 'highest', 'lossless'];
const WEBP = { Accept: 'image/webp,image/*,*/*;q=0.8' };
/** The media types a `format` asks for: `auto` any a browser reads. */
const ASKED: Record<string, string[]> = {
  auto: ['image/webp', 'image/jpeg', 'image/png', 'image/gif'],
  gif: ['image/gif'],
  jpg: ['image/jpeg'],
  png: ['image/png'],
  svg: ['image/svg+xml'],
};

function image(target: TargetFixture): string {
  need(target.imagesUrl, 'CLM_IMAGE_BASE_URL');
  return need(target.data.imageUri, 'CLM_IMAGE_URI');
}

type Query = Record<string, string | undefined>;

/** One call of a mode of the image service, which takes no key. */
function mode(
  api: ApiClient,
  operation: string,
  imageUri: string,
  query: Query = {},
  opts: CallOptions = {},
) {
  const all: Query = { source: 'clm-conformance', ...query };
  return api.call(operation, { path: { imageUri }, query: all, key: 'none', ...opts });
}

const raw = (api: ApiClient, uri: string, query: Query = {}, opts: CallOptions = {}) =>
  mode(api, 'getImageRaw', uri, query, opts);

const mediaType = (headers: Record<string, string>) => baseMediaType(headers['content-type']);

/** The bytes as a decoder of their own reads them (sharp), not as the service says they are. */
async function decoded(response: ApiResponse) {
  const { mediaType, width = 0, height = 0 } = await sharp(response.bytes).metadata();
  return { mediaType, size: [width, height] };
}

const meanColour = async (bytes: Buffer) =>
  (await sharp(bytes).stats()).channels.slice(0, 3).map((channel) => channel.mean);

const topLeft = async (bytes: Buffer) => [
  ...(await sharp(bytes).removeAlpha().extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer()),
];

/** Within one of what was computed: services round a derived side either way. */
function near(actual: number[], expected: number[], what: string): void {
  const shown = `${what}: ${actual.join('x')}, asked ~${expected.map(Math.round).join('x')}`;
  for (const [i, value] of expected.entries())
    expect(Math.abs(actual[i]! - value), shown).toBeLessThanOrEqual(1);
}

test.describe('image service v2', () => {
  test('raw returns bytes of the format its Content-Type names @IMG-01', async ({ api, target }) => {
    const uri = image(target);
    for (const asked of ['auto', 'auto+webp', 'png', 'gif', 'jpg']) {
      const [format, webp] = asked.split('+');
      const response = await raw(api, uri, { format, width: '320' }, { headers: webp ? WEBP : {} });
      expect(response.status, asked).toBe(200);
      expect((await decoded(response)).mediaType, asked).toBe(mediaType(response.headers));
    }
  });

  test('raw makes the size asked by width, height, dpr and fit; pad takes bgcolor @IMG-01', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    const size = async (query: Query) => {
      const response = await raw(api, uri, { format: 'jpg', ...query });
      expect(response.status, JSON.stringify(query)).toBe(200);
      return (await decoded(response)).size;
    };
    // One side alone keeps the aspect ratio: the image's, read from a width alone.
    const [width, height] = await size({ width: '400' });
    expect(width).toBe(400);
    const ratio = height! / width!;
    near(await size({ height: '200' }), [200 / ratio, 200], 'height=200');
    near(await size({ width: '200', dpr: '2' }), [400, 400 * ratio], 'width=200, dpr=2');
    for (const fit of ['cover', 'fill', 'pad'])
      expect(await size({ width: '300', height: '150', fit }), fit).toEqual([300, 150]);
    // contain and scale-down fit inside the box (smaller than the image), keeping the aspect ratio.
    const inside = [Math.min(300, 150 / ratio), Math.min(150, 300 * ratio)];
    for (const fit of ['contain', 'scale-down'])
      near(await size({ width: '300', height: '150', fit }), inside, fit);
    near(await size({ width: '150', height: '75', dpr: '2', fit: 'contain' }), inside, 'contain, dpr=2');
    const pad = { format: 'png', width: '600', height: '60', fit: 'pad', bgcolor: 'ff0000' };
    near(await topLeft((await raw(api, uri, pad)).bytes), [255, 0, 0], 'the padding takes bgcolor');
  });

  test('format accepts gif and auto; auto serves WebP only to a client that asks for it @IMG-02', async ({
    api,
    target,
    promises,
  }) => {
    const uri = image(target);
    const gif = await raw(api, uri, { format: 'gif', width: '200' });
    expect([mediaType(gif.headers), (await decoded(gif)).mediaType]).toEqual(['image/gif', 'image/gif']);
    const webp = mediaType((await raw(api, uri, { format: 'auto' }, { headers: WEBP })).headers);
    // The interface says auto "can" serve WebP: live, another format is drift, not a failure.
    if (!promises.strict && webp !== 'image/webp')
      test.info().annotations.push({ type: 'drift', description: `auto with WebP in Accept served ${webp}` });
    else expect(webp).toBe('image/webp');
    for (const accept of ['image/png,image/*;q=0.8', '*/*']) {
      const plain = await raw(api, uri, { format: 'auto' }, { headers: { Accept: accept } });
      expect(['image/jpeg', 'image/png', 'image/gif'], accept).toContain(mediaType(plain.headers));
    }
  });

  test('quality and tint are accepted; a lower quality makes fewer bytes, tint other pixels @IMG-03', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    const bytes = new Map<string, number>();
    for (const quality of QUALITIES) {
      const response = await raw(api, uri, { format: 'jpg', width: '320', quality });
      expect(response.status, quality).toBe(200);
      bytes.set(quality, response.bytes.length);
    }
    expect(bytes.get('lowest'), 'lowest: fewer bytes than highest').toBeLessThan(bytes.get('highest')!);
    for (const format of ['png', 'jpg']) {
      const plain = await meanColour((await raw(api, uri, { format, width: '64' })).bytes);
      const tinted = await raw(api, uri, { format, width: '64', tint: 'ff0000' });
      expect(tinted.status, format).toBe(200);
      const moved = (await meanColour(tinted.bytes)).map((mean, c) => Math.abs(mean - plain[c]!));
      expect(
        moved[0]! + moved[1]! + moved[2]!,
        `${format}: how far tint moved the mean colour`,
      ).toBeGreaterThan(6);
    }
  });

  test('an SVG is tinted with the one colour given @IMG-03', async ({ api, target, promises }) => {
    needsControl(promises);
    const colours = async (query: Query) => {
      const { status, text } = await raw(api, target.data.svgImageUri!, { format: 'svg', ...query });
      expect(status).toBe(200);
      return new Set([...text.matchAll(/(?:fill|stroke)="(#[0-9a-f]+)"/gi)].map((m) => m[1]!.toLowerCase()));
    };
    expect((await colours({})).size, 'the SVG has colours of its own').toBeGreaterThan(1);
    expect(await colours({ tint: '00ff00' })).toEqual(new Set(['#00ff00']));
  });

  test('removed parameters and modes are not honoured; mode debug exists @IMG-04', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    for (const [name, value] of Object.entries({
      scheme: 'http',
      imageset: 'o-icons',
      compression: 'best',
    })) {
      const response = await raw(api, uri, { [name]: value }, { checks: 'safety' });
      expect(response.status, name).toBe(400);
      expect(response.text, `the 400 names ${name}`).toContain(name);
    }
    for (const removed of ['data', 'data-utfhack']) {
      const url = `/images/${removed}/${encodeURIComponent(uri)}`;
      const response = await api.raw({ base: 'images', url, key: 'none', checks: 'safety' });
      expect(response.status, removed).toBe(400);
      expect(response.text, `the 400 names ${removed}`).toContain(removed);
    }
    expect((await mode(api, 'getImageDebug', uri, { width: '100' })).status).toBe(200);
  });

  test('the removed endpoints are gone @IMG-05', async ({ api, target }) => {
    const uri = encodeURIComponent(image(target));
    const root = target.imagesUrl!.replace(/\/v2$/, '');
    for (const url of [`${target.imagesUrl}/images/${uri},${uri}`, `${root}/v1/images/raw?imageset=o-icons`])
      expect((await api.raw({ url, key: 'none', checks: 'safety' })).status, url).toBe(404);
  });

  test('the metadata response has no cache property @IMG-06', async ({ api, target }) => {
    const response = await mode(api, 'getImageMetadata', image(target), { width: '200' });
    expect(response.status).toBe(200);
    expect(response.json).not.toHaveProperty('cache');
  });

  test('each limit at its edge is served; one past it gets a 4xx, never a 5xx @IMG-07', async ({
    api,
    target,
    promises,
  }) => {
    const uri = image(target);
    // width x height @ dpr: past each limit (65,000 a side, 26,214,400 pixels, dpr counted), then at it.
    const edges = ['65000x1@1', '1x65000@1', '5120x5120@1', '2560x2560@2'];
    const past = ['65001x1@1', '1x65001@1', '5120x5121@1', '2560x2561@2', '4000x4000@2'];
    for (const size of [...past, ...edges])
      for (const operation of ['getImageRaw', 'getImageMetadata']) {
        const [width, height, dpr] = size.split(/[x@]/);
        const query = { width, height, dpr, fit: 'fill', format: 'jpg', quality: 'lowest' };
        const { status } = await mode(api, operation, uri, query, { checks: 'safety' });
        const what = `${operation} ${size}: ${status}`;
        // At the edge, a live service may still refuse, with its documented 400.
        if (edges.includes(size) && (promises.strict || status !== 400)) expect(status, what).toBe(200);
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
        const response = await mode(api, operation, uri, { width: '100' }, { checks: 'safety' });
        expect(response.status, `${operation}, a source of ${bytes} bytes`).toBe(status);
      }
    }
  });

  test('any size, dpr, quality, format and fit: never a 5xx; a 200 is the image asked, within the limits @IMG-01 @IMG-07 @property', async ({
    api,
    target,
    fcParams,
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
        const over = [q.width, q.height].some((s) => s !== undefined && s > MAX_SIDE) || (q.dpr ?? 1) > 3;
        // Refused: only what is past a limit, or SVG made of a raster image.
        if (response.status !== 200) return expect(over || q.format === 'svg', what).toBe(true);
        expect(over, `${what}: past a limit, yet served`).toBe(false);
        const { mediaType: read, size } = await decoded(response);
        expect(ASKED[q.format ?? 'auto'], what).toContain(mediaType(response.headers));
        expect(read, what).toBe(mediaType(response.headers));
        const [width, height] = size as [number, number];
        expect(Math.max(width, height) <= MAX_SIDE && width * height <= MAX_PIXELS, what).toBe(true);
        if (q.width && q.height && ['cover', 'fill', 'pad'].includes(q.fit ?? 'cover'))
          expect(size, what).toEqual([q.width * (q.dpr ?? 1), q.height * (q.dpr ?? 1)]);
      }),
      atMostRuns(fcParams, 25),
    );
  });

  test('every mode answers 400 to an invalid parameter and 404 to an image it cannot find', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    for (const operation of ['getImageRaw', 'getImageDebug', 'getImageMetadata']) {
      expect((await mode(api, operation, uri, { format: 'bmp' })).status, operation).toBe(400);
      const unknown = 'ftcms:00000000-0000-4000-8000-000000000000';
      expect((await mode(api, operation, unknown)).status, operation).toBe(404);
    }
  });
});
