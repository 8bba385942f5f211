import sharp from 'sharp';
import { says } from '../../lib/claims.ts';
import { expect, needsControl, test } from '../fixtures.ts';
import {
  decoded,
  image,
  mediaType,
  mode,
  namesRefused,
  QUALITIES,
  type Query,
  raw,
  WEBP,
  promisedBy,
} from './images-support.ts';

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
test.describe('image service v2: the format and the size asked', () => {
  test('raw returns bytes of the format its Content-Type names @IMG-01', async ({ api, target }) => {
    const uri = image(target);
    for (const asked of ['auto', 'auto+webp', 'png', 'gif', 'jpg']) {
      const [format, webp] = asked.split('+');
      const response = await raw(api, uri, { format, width: '320' }, { headers: webp ? WEBP : {} });
      expect(response.status, says(promisedBy('getImageRaw', { format }, response, 'IMG-01'), asked)).toBe(
        200,
      );
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
      const refusedBy = promisedBy('getImageRaw', query, response, 'IMG-01');
      expect(response.status, says(refusedBy, JSON.stringify(query))).toBe(200);
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
    decided,
  }) => {
    const uri = image(target);
    const gif = await raw(api, uri, { format: 'gif', width: '200' });
    expect((await decoded(gif)).mediaType, says('IMG-01', 'the bytes are what Content-Type names')).toBe(
      mediaType(gif.headers),
    );
    expect(mediaType(gif.headers)).toBe('image/gif');
    const auto = await raw(api, uri, { format: 'auto' }, { headers: WEBP });
    const webp = mediaType(auto.headers);
    expect((await decoded(auto)).mediaType, says('IMG-01', 'the bytes are what Content-Type names')).toBe(
      webp,
    );
    // The interface says auto "can" serve WebP: live, another format is drift, not a failure.
    decided('image-auto-webp', webp, {
      operation: 'getImageRaw',
      status: auto.status,
      field: 'Content-Type',
    });
    for (const accept of ['image/png,image/*;q=0.8', '*/*']) {
      const plain = await raw(api, uri, { format: 'auto' }, { headers: { Accept: accept } });
      expect(['image/jpeg', 'image/png', 'image/gif'], accept).toContain(mediaType(plain.headers));
    }
  });
});

test.describe('image service v2: quality and tint', () => {
  test('quality and tint are accepted; a lower quality makes fewer bytes, tint other pixels @IMG-03', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    const bytes = new Map<string, number>();
    for (const quality of QUALITIES) {
      const response = await raw(api, uri, { format: 'jpg', width: '320', quality });
      expect(response.status, says(promisedBy('getImageRaw', { quality }, response, 'IMG-03'), quality)).toBe(
        200,
      );
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
});

test.describe("image service v2: what was removed, the metadata's shape, and what is refused", () => {
  test('removed parameters and modes are not honoured; mode debug exists @IMG-04', async ({
    api,
    target,
    decided,
  }) => {
    const uri = image(target);
    for (const [name, value] of Object.entries({
      scheme: 'http',
      imageset: 'o-icons',
      compression: 'best',
    })) {
      const response = await raw(api, uri, { [name]: value }, { checks: 'safety' });
      expect(response.status, name).toBe(400);
      namesRefused(response, name, decided);
    }
    for (const removed of ['data', 'data-utfhack']) {
      const url = `/images/${removed}/${encodeURIComponent(uri)}`;
      const response = await api.raw({ base: 'images', url, key: 'none', checks: 'safety' });
      expect(response.status, removed).toBe(400);
      namesRefused(response, removed, decided);
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

  test('every request names the calling system as source, unless it leaves it out; without it, never a 5xx @HTTP-04', async ({
    api,
    target,
    decided,
  }) => {
    const uri = image(target);
    const sent = (response: { url: string }) => new URL(response.url).searchParams.getAll('source');
    expect(sent(await raw(api, uri, { width: '50' }))).toEqual([target.imageSource]);
    expect(sent(await raw(api, uri, { width: '50', source: 'another-system' }))).toEqual(['another-system']);
    const without = await raw(api, uri, { width: '50' }, { imageSource: false });
    expect(sent(without)).toEqual([]);
    // The source is optional in the contract, as the mock decides; the real service refuses it (400).
    decided('image-source-optional', without.status, { operation: 'getImageRaw', field: 'source' });
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

test.describe('image service v2: what an error is written in', () => {
  test('an error is JSON, or an HTML page to a client that prefers one, as a browser does', async ({
    api,
    target,
    decided,
  }) => {
    const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const uri = image(target);
    for (const operation of ['getImageRaw', 'getImageDebug', 'getImageMetadata']) {
      // The client checks each against the contract: JSON or HTML, and nothing else.
      const page = await mode(api, operation, uri, { format: 'bmp' }, { headers: browser });
      expect(page.status, operation).toBe(400);
      const json = await mode(
        api,
        operation,
        uri,
        { format: 'bmp' },
        { headers: { Accept: 'application/json' } },
      );
      expect(json.status, operation).toBe(400);
      // The mock's decision: JSON unless a page is preferred. The real service sends HTML to all.
      const [pageType = '', jsonType = ''] = [page, json].map((r) => r.headers['content-type']);
      const words = page.text.includes('format must be one of');
      const held = /^text\/html/.test(pageType) && words && /^application\/json/.test(jsonType);
      const answer = `${pageType} (${words ? 'saying' : 'not saying'} what was wrong) to a browser, ${jsonType} to JSON`;
      decided('image-error-by-accept', held, { operation, status: 400, field: 'Content-Type', case: answer });
    }
  });
});
