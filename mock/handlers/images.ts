import { encode, MEDIA_TYPES, type ImageFormat, type Rgb } from '../images/encode.ts';
import type { SourceImage } from '../state/index.ts';
import type { Context, Handler, MockResponse } from '../types.ts';
import { fail, ok, quote } from './respond.ts';

const MAX_SIDE = 65_000;
const MAX_PIXELS = 26_214_400;
const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
/** The mock renders at most this many pixels, scaled down, so no request can make it allocate much. */
const RENDER_PIXELS = 1_000_000;

const REMOVED_PARAMETERS: Record<string, string> = {
  scheme: 'the scheme is part of the image URI',
  imageset: 'building one image from several sources is gone',
  compression: 'use "quality"',
};
const REMOVED_MODES = ['data', 'data-utfhack'];
const FORMATS = ['auto', 'gif', 'jpg', 'png', 'svg'];
const QUALITIES = ['lowest', 'low', 'medium', 'high', 'highest', 'lossless'];
const FITS = ['cover', 'contain', 'fill', 'scale-down', 'pad'];

interface Transform {
  image: SourceImage;
  format: ImageFormat;
  width: number;
  height: number;
  dpr: number;
  colour: Rgb;
  given: Record<string, string>;
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

/** Reads and checks the transform; a string is the message of a 400. */
function transform(context: Context): Transform | MockResponse {
  const query = context.request.query;
  if (context.behaviour.refuseRemovedImageParameters)
    for (const [name, why] of Object.entries(REMOVED_PARAMETERS))
      if (query.has(name)) return fail(context, 400, `The parameter "${name}" was removed in v2: ${why}`);
  const format = query.get('format') ?? 'auto';
  if (!FORMATS.includes(format)) return fail(context, 400, `format must be one of ${FORMATS.join(', ')}`);
  const quality = query.get('quality');
  if (quality !== null && !QUALITIES.includes(quality))
    return fail(context, 400, `quality must be one of ${QUALITIES.join(', ')}`);
  const fit = query.get('fit');
  if (fit !== null && !FITS.includes(fit)) return fail(context, 400, `fit must be one of ${FITS.join(', ')}`);
  const tint = query.get('tint');
  if (tint !== null && !/^[0-9a-fA-F]{6}(,[0-9a-fA-F]{6})?$/.test(tint))
    return fail(context, 400, 'tint must be a hex colour such as ff0000');
  const numbers = (['width', 'height', 'dpr'] as const).map((name) => whole(query.get(name), name));
  const problem = numbers.find((n) => typeof n === 'string');
  if (typeof problem === 'string') return fail(context, 400, problem);
  const [askedWidth, askedHeight, askedDpr] = numbers as (number | undefined)[];

  const image = context.state.images.get(context.pathParams.imageUri!);
  if (!image) return fail(context, 404, `Image not found: ${quote(context.pathParams.imageUri!)}`);
  const dpr = askedDpr ?? 1;
  const width =
    (askedWidth ?? (askedHeight ? Math.round((image.width * askedHeight) / image.height) : image.width)) *
    dpr;
  const height =
    (askedHeight ?? (askedWidth ? Math.round((image.height * askedWidth) / image.width) : image.height)) *
    dpr;
  const { imageMaxSide, limitsBeforeDpr } = context.behaviour;
  // The size the limits are checked on: the output's, unless the check comes before dpr.
  const [checkedWidth, checkedHeight] = limitsBeforeDpr ? [width / dpr, height / dpr] : [width, height];
  const limit =
    image.bytes > MAX_SOURCE_BYTES
      ? 'The source image is larger than 20 MB'
      : checkedWidth > imageMaxSide || checkedHeight > imageMaxSide
        ? `Width and height are limited to ${MAX_SIDE} pixels`
        : checkedWidth * checkedHeight > MAX_PIXELS
          ? 'The transformed image is limited to 25 megapixels (26,214,400 pixels)'
          : undefined;
  if (limit) {
    if (context.behaviour.checkImageLimits) return fail(context, 400, limit);
    // What a renderer that never checked would come to: running out of memory.
    return { status: 500, body: { message: 'Out of memory while transforming the image' } };
  }

  const accept = context.request.headers.accept ?? '';
  const resolved: ImageFormat =
    format !== 'auto'
      ? (format as ImageFormat)
      : image.format === 'svg'
        ? 'svg'
        : (accept.includes('image/webp') || context.behaviour.webpForEveryClient) &&
            context.behaviour.serveWebp
          ? 'webp'
          : image.format;
  // Tint blends the tint colour in (an SVG takes the one colour given), so the pixels change.
  const tinted = tint
    ? (tint
        .slice(0, 6)
        .match(/../g)!
        .map((h) => parseInt(h, 16)) as Rgb)
    : undefined;
  const colour: Rgb =
    !tinted || !context.behaviour.applyTint
      ? image.colour
      : resolved === 'svg'
        ? context.behaviour.tintSvg
          ? tinted
          : image.colour
        : (image.colour.map((c, i) => Math.round((c + tinted[i]!) / 2)) as Rgb);
  return { image, format: resolved, width, height, dpr, colour, given: Object.fromEntries(query) };
}

function render(t: Transform): { bytes: Buffer; width: number; height: number } {
  const scale = Math.min(1, Math.sqrt(RENDER_PIXELS / (t.width * t.height)));
  const width = Math.max(1, Math.floor(t.width * scale));
  const height = Math.max(1, Math.floor(t.height * scale));
  const bytes = encode(t.format, width, height, t.colour);
  return t.format === 'webp' ? { bytes, width: 1, height: 1 } : { bytes, width, height };
}

export const getImageRaw: Handler = (context) => {
  const t = transform(context);
  if ('status' in t) return t;
  return {
    status: 200,
    headers: { 'Content-Type': MEDIA_TYPES[t.format], Vary: 'Accept' },
    body: render(t).bytes,
  };
};

export const getImageDebug: Handler = (context) => {
  const t = transform(context);
  if ('status' in t) return t;
  return ok({
    uri: t.image.uri,
    transform: t.given,
    appliedTransform: { format: t.format, width: t.width, height: t.height, dpr: t.dpr },
  });
};

export const getImageMetadata: Handler = (context) => {
  const t = transform(context);
  if ('status' in t) return t;
  const { bytes, width, height } = render(t);
  return ok({ dpr: t.dpr, type: MEDIA_TYPES[t.format], filesize: bytes.length, width, height });
};
