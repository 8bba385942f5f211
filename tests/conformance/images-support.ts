import { baseMediaType, loadContract } from '../../lib/contract/index.ts';
import { refusalRules } from '../../lib/explore/index.ts';
import sharp from 'sharp';
import type { ApiClient, ApiResponse, CallOptions } from '../../lib/client/client.ts';
import { expect, need, test, type Decided, type TargetFixture } from '../fixtures.ts';

/** What the image service's tests share: its limits, its parameters, and a call of one of its modes. */
export const MAX_SIDE = 65_000;
export const MAX_PIXELS = 26_214_400;
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
export const FITS = ['cover', 'contain', 'fill', 'scale-down', 'pad'];
export const QUALITIES = ['lowest', 'low', 'medium', 'high', 'highest', 'lossless'];
export const WEBP = { Accept: 'image/webp,image/*,*/*;q=0.8' };
/** The media types a `format` asks for: `auto` any a browser reads. */
export const ASKED: Record<string, string[]> = {
  auto: ['image/webp', 'image/jpeg', 'image/png', 'image/gif'],
  gif: ['image/gif'],
  jpg: ['image/jpeg'],
  png: ['image/png'],
  svg: ['image/svg+xml'],
};

const contract = await loadContract();

/**
 * The rule a refusal of a request a test needs served breaks: that of the parameter the refusal
 * names (`refusalRules`), else the test's own. A test that needs an image first is blocked by it,
 * not failed, when the image is refused for another rule's parameter.
 */
export function promisedBy(operation: string, query: Query, response: ApiResponse, own: string): string[] {
  const sent = Object.keys(query).filter((name) => query[name] !== undefined);
  const named = refusalRules(contract, operation, sent, response);
  return named.length ? named : [own];
}

export function image(target: TargetFixture): string {
  need(target.imagesUrl, 'CLM_IMAGE_BASE_URL');
  return need(target.data.imageUri, 'CLM_IMAGE_URI');
}

export type Query = Record<string, string | undefined>;

/** One call of a mode of the image service, which takes no key; the client adds `source`. */
export function mode(
  api: ApiClient,
  operation: string,
  imageUri: string,
  query: Query = {},
  opts: CallOptions = {},
) {
  return api.call(operation, { path: { imageUri }, query, key: 'none', ...opts });
}

export const raw = (api: ApiClient, uri: string, query: Query = {}, opts: CallOptions = {}) =>
  mode(api, 'getImageRaw', uri, query, opts);

export const mediaType = (headers: Record<string, string>) => baseMediaType(headers['content-type']);

/** The bytes as a decoder of their own reads them (sharp), not as the service says they are. */
export async function decoded(response: ApiResponse) {
  const { mediaType, width = 0, height = 0 } = await sharp(response.bytes).metadata();
  return { mediaType, size: [width, height] };
}

/**
 * Whether an error names what it refused (IMG-04, a decision), read only from a JSON answer: the
 * mock's always is; the real service's error pages are HTML (drift), where a miss is only noted.
 */
export function namesRefused(response: ApiResponse, name: string, decided: Decided): void {
  const type = mediaType(response.headers);
  const at = { operation: response.operation ?? '(no operation)', status: 400, field: 'Content-Type' };
  decided('image-refusal-json', type, { ...at, case: name, what: `the 400 for ${name} is JSON` });
  if (type === 'application/json') expect(response.text, `the 400 names ${name}`).toContain(name);
  else if (!response.text.includes(name))
    test.info().annotations.push({
      type: 'drift',
      description: `the ${type || 'untyped'} 400 for ${name} does not name it`,
    });
}
