import { fileTypeFromBuffer } from 'file-type';
import type { ApiClient, CallOptions } from '../../lib/client/client.ts';
import { expect, need, onlyAgainstMock, type TargetFixture, test } from '../fixtures.ts';

function image(target: TargetFixture): string {
  need(target.imagesUrl, 'CLM_IMAGE_BASE_URL');
  return need(target.data.imageUri, 'CLM_IMAGE_URI');
}

function raw(
  api: ApiClient,
  imageUri: string,
  query: Record<string, string> = {},
  options: CallOptions = {},
) {
  return api.call('getImageRaw', {
    path: { imageUri },
    query: { source: 'clm-conformance', ...query },
    key: 'none',
    ...options,
  });
}

const mediaType = (headers: Record<string, string>) => (headers['content-type'] ?? '').split(';')[0]!.trim();

test.describe('image service v2', () => {
  test('raw returns bytes of the format its Content-Type names @IMG-01', async ({ api, target }) => {
    const uri = image(target);
    for (const format of ['auto', 'png', 'gif', 'jpg']) {
      const response = await raw(api, uri, { format, width: '320' });
      expect(response.status, format).toBe(200);
      // The bytes read by a library of their own, not by the mock's encoder.
      const found = await fileTypeFromBuffer(response.bytes);
      expect(found, `${format}: bytes of a known image format`).toBeDefined();
      expect(mediaType(response.headers), format).toBe(found!.mime);
    }
  });

  test('format accepts gif and auto; auto serves WebP only to a client that asks for it @IMG-02', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    expect(mediaType((await raw(api, uri, { format: 'gif' })).headers)).toBe('image/gif');
    const webp = await raw(
      api,
      uri,
      { format: 'auto' },
      { headers: { Accept: 'image/webp,image/*,*/*;q=0.8' } },
    );
    // The interface says auto "can" serve WebP: live, another format is drift, not a failure.
    if (target.kind === 'live' && mediaType(webp.headers) !== 'image/webp')
      test.info().annotations.push({
        type: 'drift',
        description: `auto with WebP in Accept served ${mediaType(webp.headers)}`,
      });
    else expect(mediaType(webp.headers)).toBe('image/webp');
    const plain = await raw(api, uri, { format: 'auto' }, { headers: { Accept: 'image/png,image/*;q=0.8' } });
    expect(['image/jpeg', 'image/png', 'image/gif']).toContain(mediaType(plain.headers));
  });

  test('quality and tint are accepted and tint changes the pixels; an SVG takes the one colour given @IMG-03', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    expect((await raw(api, uri, { format: 'png', quality: 'low' })).status).toBe(200);
    const plain = await raw(api, uri, { format: 'png', width: '64' });
    const tinted = await raw(api, uri, { format: 'png', width: '64', tint: 'ff0000' });
    expect(tinted.status).toBe(200);
    expect(tinted.bytes.equals(plain.bytes), 'tint changed the image').toBe(false);
  });

  test('an SVG is tinted with the one colour given @IMG-03', async ({ api, target }) => {
    onlyAgainstMock(target);
    const tintedSvg = await raw(api, target.data.svgImageUri!, { format: 'svg', tint: '00ff00' });
    expect(tintedSvg.status).toBe(200);
    expect(tintedSvg.text.toLowerCase()).toContain('#00ff00');
  });

  test('removed parameters and modes are not honoured; mode debug exists @IMG-04', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    const removed: [string, string][] = [
      ['scheme', 'http'],
      ['imageset', 'o-icons'],
      ['compression', 'best'],
    ];
    for (const [name, value] of removed) {
      const response = await raw(api, uri, { [name]: value }, { checks: 'safety' });
      expect(response.status, name).toBe(400);
      expect(response.text, `the 400 names ${name}`).toContain(name);
    }
    for (const mode of ['data', 'data-utfhack']) {
      const response = await api.raw({
        base: 'images',
        url: `/images/${mode}/${encodeURIComponent(uri)}`,
        key: 'none',
        checks: 'safety',
      });
      expect(response.status, mode).toBe(400);
      expect(response.text, `the 400 names ${mode}`).toContain(mode);
    }
    const debug = await api.call('getImageDebug', {
      path: { imageUri: uri },
      query: { width: '100' },
      key: 'none',
    });
    expect(debug.status).toBe(200);
  });

  test('the removed endpoints are gone @IMG-05', async ({ api, target }) => {
    const uri = encodeURIComponent(image(target));
    const root = target.imagesUrl!.replace(/\/v2$/, '');
    for (const url of [
      `${target.imagesUrl}/images/${uri},${uri}`,
      `${root}/v1/images/raw?imageset=o-icons`,
    ]) {
      expect((await api.raw({ url, key: 'none', checks: 'safety' })).status, url).toBe(404);
    }
  });

  test('the metadata response has no cache property @IMG-06', async ({ api, target }) => {
    const uri = image(target);
    const response = await api.call('getImageMetadata', {
      path: { imageUri: uri },
      query: { width: '200' },
      key: 'none',
    });
    expect(response.status).toBe(200);
    expect(response.json).not.toHaveProperty('cache');
  });

  test('above 25 megapixels, 65,000 pixels a side or a 20 MB source: a 4xx, never a 5xx @IMG-07', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    const limits: Record<string, string>[] = [
      { width: '65001' },
      { height: '65001' },
      { width: '6000', height: '6000' },
      // A side over the limit alone, far below 25 megapixels.
      { width: '65001', height: '1' },
      { width: '1', height: '65001' },
      // The transformed size is the asked size times dpr: 8,000 x 8,000 is 64 megapixels.
      { width: '4000', height: '4000', dpr: '2' },
    ];
    for (const query of limits) {
      const response = await raw(api, uri, { ...query, format: 'png' }, { checks: 'safety' });
      expect(response.status, JSON.stringify(query)).toBeGreaterThanOrEqual(400);
      expect(response.status, JSON.stringify(query)).toBeLessThan(500);
    }
  });

  test('a source above 20 MB gets a 4xx @IMG-07', async ({ api, target }) => {
    onlyAgainstMock(target);
    const response = await raw(api, target.data.hugeImageUri!, {}, { checks: 'safety' });
    expect(response.status).toBe(400);
  });

  test('every mode answers 400 to an invalid parameter and 404 to an image it cannot find', async ({
    api,
    target,
  }) => {
    const uri = image(target);
    for (const operation of ['getImageRaw', 'getImageDebug', 'getImageMetadata']) {
      const invalid = await api.call(operation, {
        path: { imageUri: uri },
        query: { format: 'bmp' },
        key: 'none',
      });
      expect(invalid.status, operation).toBe(400);
      const unknown = await api.call(operation, {
        path: { imageUri: 'ftcms:00000000-0000-4000-8000-000000000000' },
        key: 'none',
      });
      expect(unknown.status, operation).toBe(404);
    }
  });
});
