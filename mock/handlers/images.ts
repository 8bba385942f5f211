import { LIMITS, type Defects } from '../behaviour.ts';
import { MEDIA_TYPES, QUALITIES, rgb, type ImageFormat, type Quality } from '../images/formats.ts';
import { render, type RenderSpec, type Resize } from '../images/render.ts';
import { MAX_SOURCE_BYTES, type SourceImage } from '../state/images.ts';
import { PendingBytes, type Context, type Handler, type MockResponse } from '../types.ts';
import { fail, ok, quote } from './respond.ts';

const REMOVED_PARAMETERS: Record<string, string> = {
  scheme: 'the scheme is part of the image URI',
  imageset: 'building one image from several sources is gone',
  compression: 'use "quality"',
};
const REMOVED_MODES = ['data', 'data-utfhack'];
const FORMATS = ['auto', 'gif', 'jpg', 'png', 'svg'];
/** The largest side a WebP image can have (the format's 14-bit dimensions). */
const WEBP_MAX_SIDE = 16_383;
const FITS = ['cover', 'contain', 'fill', 'scale-down', 'pad'] as const;
/** Where a cover crop keeps the image; the mock finds no faces, so it crops from the centre (decision). */
const GRAVITIES = ['faces', 'poi'];
type Fit = (typeof FITS)[number];
const COLOUR = '[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?';

/** A request read and checked: the transform to make, and what the debug and metadata modes tell. */
interface Transform {
  image: SourceImage;
  spec: RenderSpec;
  dpr: number;
  fit: Fit | undefined;
  given: Record<string, string>;
}

interface Size {
  width: number;
  height: number;
  resize: Resize;
}

/** The answer to a mode removed in v2 (IMG-04, decision: 400 naming it), for paths no operation has. */
export function removedImageMode(path: string): MockResponse | undefined {
  const mode = /^\/images\/([^/]+)\//.exec(path)?.[1];
  if (!mode || !REMOVED_MODES.includes(mode)) return undefined;
  return {
    status: 400,
    body: { message: `The mode "${mode}" was removed in v2: use raw, debug or metadata` },
  };
}

function whole(value: string | null, name: string): number | string | undefined {
  if (value === null) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
    return `${name} must be a positive whole number, not ${quote(value)}`;
  return Number(value);
}

/**
 * The output's size: the box asked (times `dpr`) met as `fit` says; one side alone, or `contain`
 * and `scale-down`, keep the aspect ratio, and `scale-down` never enlarges.
 */
function outputSize(
  image: SourceImage,
  asked: { width?: number; height?: number },
  fit: Fit | undefined,
  dpr: number,
  defects: Defects,
): Size {
  const keep = (scale: number): Size => ({
    width: Math.max(1, Math.round(image.width * scale)),
    height: Math.max(1, Math.round(image.height * scale)),
    resize: 'stretch',
  });
  const width = asked.width && asked.width * dpr;
  const height = asked.height && asked.height * dpr;
  const down = (scale: number) => (fit === 'scale-down' ? Math.min(1, scale) : scale);
  if (!width && !height) return keep(down(dpr));
  if (!width || !height) {
    const scale = width ? width / image.width : height! / image.height;
    if (down(scale) < scale) return keep(1);
    return width
      ? { width, height: Math.max(1, Math.round((image.height * width) / image.width)), resize: 'stretch' }
      : {
          width: Math.max(1, Math.round((image.width * height!) / image.height)),
          height: height!,
          resize: 'stretch',
        };
  }
  const inside = Math.min(width / image.width, height / image.height);
  switch (fit ?? 'cover') {
    case 'cover':
      return { width, height, resize: 'crop' };
    case 'pad':
      return { width, height, resize: 'pad' };
    case 'contain':
      return !defects.containStretches ? keep(inside) : { width, height, resize: 'stretch' };
    case 'scale-down':
      return keep(Math.min(1, inside));
    default:
      return { width, height, resize: 'stretch' };
  }
}

/** Why the transform is over a limit, if it is: checked before any work. */
function overLimit(
  image: SourceImage,
  asked: { width?: number; height?: number },
  size: Size,
  dpr: number,
  defects: Defects,
): string | undefined {
  const imageMaxSide = defects.sideLimit65536 ? 65_536 : LIMITS.imageMaxSide;
  const imageMaxPixels = defects.pixelLimit25Million ? 25_000_000 : LIMITS.imageMaxPixels;
  if (image.bytes > MAX_SOURCE_BYTES || (defects.sourceLimitInclusive && image.bytes >= MAX_SOURCE_BYTES))
    return 'The source image is larger than 20 MB';
  const sides = [size.width, size.height, (asked.width ?? 0) * dpr, (asked.height ?? 0) * dpr];
  if (!defects.sideLimitUnchecked && Math.max(...sides) > imageMaxSide)
    return `Width and height are limited to ${LIMITS.imageMaxSide} pixels`;
  if (size.width * size.height > imageMaxPixels)
    return 'The transformed image is limited to 25 megapixels (26,214,400 pixels)';
  return undefined;
}

/** Reads and checks the transform; a response is the error to answer instead. */
function transform(context: Context): Transform | MockResponse {
  const { query, headers } = context.request;
  const defects = context.defects;
  if (!defects.removedImageParamsServed)
    for (const [name, why] of Object.entries(REMOVED_PARAMETERS))
      if (query.has(name)) return fail(context, 400, `The parameter "${name}" was removed in v2: ${why}`);
  const format = query.get('format') ?? 'auto';
  if (!FORMATS.includes(format)) return fail(context, 400, `format must be one of ${FORMATS.join(', ')}`);
  const quality = query.get('quality');
  if (quality !== null && !(quality in QUALITIES))
    return fail(context, 400, `quality must be one of ${Object.keys(QUALITIES).join(', ')}`);
  const fit = query.get('fit') ?? undefined;
  if (fit !== undefined && !(FITS as readonly string[]).includes(fit))
    return fail(context, 400, `fit must be one of ${FITS.join(', ')}`);
  const gravity = query.get('gravity');
  if (gravity !== null && !GRAVITIES.includes(gravity))
    return fail(context, 400, `gravity must be one of ${GRAVITIES.join(', ')}`);
  const tint = query.get('tint');
  if (tint !== null && !new RegExp(`^${COLOUR}(,${COLOUR})?$`).test(tint))
    return fail(context, 400, 'tint must be one or two hex colours such as ff0000 or ff0000,0000ff');
  const bgcolor = query.get('bgcolor');
  if (bgcolor !== null && !new RegExp(`^${COLOUR}$`).test(bgcolor))
    return fail(context, 400, 'bgcolor must be a hex colour such as ffffff');
  const numbers = (['width', 'height', 'dpr'] as const).map((name) => whole(query.get(name), name));
  const problem = numbers.find((n) => typeof n === 'string');
  if (typeof problem === 'string') return fail(context, 400, problem);
  const [width, height, dpr = 1] = numbers as (number | undefined)[];
  const asked = { width, height };

  const image = context.state.images.get(context.pathParams.imageUri!);
  if (!image) return fail(context, 404, `Image not found: ${quote(context.pathParams.imageUri!)}`);
  const checkedDpr = defects.limitsBeforeDpr ? 1 : dpr;
  const checked = outputSize(image, asked, fit as Fit | undefined, checkedDpr, defects);
  const limit = overLimit(image, asked, checked, checkedDpr, defects);
  const checks =
    !defects.imageLimitsUnchecked &&
    (!defects.metadataLimitsUnchecked || context.operation.id !== 'getImageMetadata');
  if (limit && checks) return fail(context, 400, limit);
  // What a renderer that never checked would come to: running out of memory, with nothing made.
  if (limit) return { status: 500, body: { message: 'Out of memory while transforming the image' } };

  const size = outputSize(image, asked, fit as Fit | undefined, !defects.dprIgnored ? dpr : 1, defects);
  // WebP cannot hold a side past 16,383 pixels: a larger output is negotiated to JPEG instead.
  const webp =
    (/\bimage\/webp\b/.test(headers.accept ?? '') || defects.webpForEveryClient) &&
    !defects.webpNeverServed &&
    Math.max(size.width, size.height) <= WEBP_MAX_SIDE;
  let output: ImageFormat =
    format !== 'auto' ? (format as ImageFormat) : image.format === 'svg' ? 'svg' : webp ? 'webp' : 'jpg';
  if (output === 'svg' && image.format !== 'svg')
    return fail(context, 400, 'format=svg needs an SVG source: a raster image cannot be served as SVG');
  if (output === 'gif' && defects.gifServedAsPng) output = 'png';
  const tinted =
    !defects.tintIgnored &&
    (output !== 'svg' || !defects.svgTintIgnored) &&
    (output !== 'jpg' || !defects.jpegTintIgnored);
  const { uri, format: sourceFormat, width: sourceWidth, height: sourceHeight } = image;
  const spec: RenderSpec = {
    uri,
    source: { format: sourceFormat, width: sourceWidth, height: sourceHeight },
    format: output,
    ...size,
    quality: !defects.qualityIgnored ? ((quality ?? undefined) as Quality | undefined) : undefined,
    tint: tint && tinted ? tint.split(',').map(rgb) : [],
    bgcolor: bgcolor && !defects.bgcolorIgnored ? rgb(bgcolor) : undefined,
  };
  return { image, spec, dpr, fit: fit as Fit | undefined, given: Object.fromEntries(query) };
}

const pending = (t: Transform) => new PendingBytes(() => render(t.spec, () => t.image.load()));

export const getImageRaw: Handler = (context) => {
  const t = transform(context);
  if ('status' in t) return t;
  return {
    status: 200,
    headers: { 'Content-Type': MEDIA_TYPES[t.spec.format], Vary: 'Accept' },
    body: pending(t),
  };
};

/** The transform as the real service tells it: `appliedTransform` is the raw URL of what is made. */
export const getImageDebug: Handler = (context) => {
  const t = transform(context);
  if ('status' in t) return t;
  const { format, width, height, quality, tint, bgcolor } = t.spec;
  const applied = new URLSearchParams({ format, width: String(width), height: String(height) });
  if (t.fit) applied.set('fit', t.fit);
  if (quality) applied.set('quality', quality);
  if (tint.length > 0) applied.set('tint', t.given.tint!);
  if (bgcolor) applied.set('bgcolor', t.given.bgcolor!);
  if (t.given.source) applied.set('source', t.given.source);
  const raw = context.requestUrl.split('?')[0]!.replace('/images/debug/', '/images/raw/');
  return ok({ uri: t.image.uri, transform: t.given, appliedTransform: `${raw}?${applied.toString()}` });
};

export const getImageMetadata: Handler = (context) => {
  const t = transform(context);
  if ('status' in t) return t;
  const { format, width, height } = t.spec;
  const describe = (bytes: Buffer) =>
    Buffer.from(
      JSON.stringify({ dpr: t.dpr, type: MEDIA_TYPES[format], filesize: bytes.length, width, height }),
    );
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: pending(t).map(describe),
  };
};
