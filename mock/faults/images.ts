import { PendingBytes } from '../types.ts';
import { onStatus, rewrite, switches, type Fault, SERVER_ERROR } from './fault.ts';

const IMAGE_OPERATIONS = ['getImageRaw', 'getImageDebug', 'getImageMetadata'];

/** Image service v2: faults that break its rules. */
export const IMAGES_FAULTS: Fault[] = [
  {
    name: 'image-type-mislabelled',
    rule: 'IMG-01',
    kind: 'header',
    description: 'A GIF is sent with Content-Type image/png.',
    apply: rewrite(['getImageRaw'], (r) =>
      r.headers?.['Content-Type'] === 'image/gif'
        ? { ...r, headers: { ...r.headers, 'Content-Type': 'image/png' } }
        : r,
    ),
  },
  {
    name: 'raw-answers-debug-json',
    rule: 'IMG-01',
    kind: 'shape',
    description: 'raw answers with the JSON description of the transform (the debug answer), not the image.',
    apply: rewrite(['getImageRaw'], (r, req) =>
      r.status === 200
        ? { status: 200, body: { uri: req.path, appliedTransform: Object.fromEntries(req.query) } }
        : r,
    ),
  },
  {
    name: 'webp-labelled-jpeg',
    rule: 'IMG-01',
    kind: 'header',
    description: 'WebP bytes (format=auto for a client that takes WebP) are sent as Content-Type image/jpeg.',
    apply: rewrite(['getImageRaw'], (r) =>
      r.headers?.['Content-Type'] === 'image/webp'
        ? { ...r, headers: { ...r.headers, 'Content-Type': 'image/jpeg' } }
        : r,
    ),
  },
  {
    name: 'contain-stretches',
    rule: 'IMG-01',
    kind: 'value',
    description: 'fit=contain stretches the image to the box asked, as fill does: the aspect ratio is lost.',
    apply: switches({ containStretches: true }),
  },
  {
    name: 'dpr-ignored',
    rule: 'IMG-01',
    kind: 'value',
    description:
      'dpr is ignored when the image is made: dpr=2 serves the 1x size (the limits still count it).',
    apply: switches({ dprIgnored: true }),
  },
  {
    name: 'bgcolor-ignored',
    rule: 'IMG-01',
    kind: 'value',
    description: 'bgcolor is ignored: the padding of fit=pad stays transparent (white in a JPEG).',
    apply: switches({ bgcolorIgnored: true }),
  },
  {
    name: 'auto-ignores-webp',
    rule: 'IMG-02',
    kind: 'value',
    description: 'format=auto never serves WebP, whatever the client accepts.',
    notLive: 'The interface says auto "can" serve WebP: live, another format is drift, not a failure.',
    apply: switches({ webpNeverServed: true }),
  },
  {
    name: 'webp-without-accept',
    rule: 'IMG-02',
    kind: 'value',
    description: 'format=auto serves WebP to every client, also one whose Accept does not name it.',
    apply: switches({ webpForEveryClient: true }),
  },
  {
    name: 'gif-format-refused',
    rule: 'IMG-02',
    kind: 'status',
    description: 'format=gif gets 400: the v2 format list forgot gif.',
    apply: rewrite(IMAGE_OPERATIONS, (r, req) =>
      r.status === 200 && req.query.get('format') === 'gif'
        ? { status: 400, body: { message: 'format must be one of auto, jpg, png, svg' } }
        : r,
    ),
  },
  {
    name: 'gif-served-as-png',
    rule: 'IMG-02',
    kind: 'value',
    description: 'format=gif is accepted but a PNG is served (Content-Type image/png): no GIF encoder.',
    apply: switches({ gifServedAsPng: true }),
  },
  {
    name: 'tint-ignored',
    rule: 'IMG-03',
    kind: 'value',
    description: 'tint is accepted but the pixels do not change.',
    apply: switches({ tintIgnored: true }),
  },
  {
    name: 'svg-tint-ignored',
    rule: 'IMG-03',
    kind: 'value',
    description: 'tint changes raster images but an SVG keeps its own colours.',
    notLive: 'A live run knows one raster image (CLM_IMAGE_URI): only the mock has an SVG to tint.',
    apply: switches({ svgTintIgnored: true }),
  },
  {
    name: 'tint-duotone-refused',
    rule: 'IMG-03',
    kind: 'status',
    description: 'tint of two colours (a duotone), which its pattern allows, gets 400.',
    apply: rewrite(IMAGE_OPERATIONS, (r, req) =>
      r.status === 200 && req.query.get('tint')?.includes(',')
        ? { status: 400, body: { message: 'tint takes one colour' } }
        : r,
    ),
  },
  {
    name: 'quality-refused',
    rule: 'IMG-03',
    kind: 'status',
    description: 'quality gets 400, as in v1 where compression was the parameter.',
    apply: rewrite(IMAGE_OPERATIONS, (r, req) =>
      r.status === 200 && req.query.has('quality')
        ? { status: 400, body: { message: 'quality is not supported: use compression' } }
        : r,
    ),
  },
  {
    name: 'quality-ignored',
    rule: 'IMG-03',
    kind: 'value',
    description: 'quality is accepted and ignored: lowest and highest give the same bytes.',
    apply: switches({ qualityIgnored: true }),
  },
  {
    name: 'tint-ignored-for-jpeg',
    rule: 'IMG-03',
    kind: 'value',
    description: 'tint changes PNG, GIF and WebP output, but a JPEG keeps its colours.',
    apply: switches({ jpegTintIgnored: true }),
  },
  {
    name: 'removed-parameters-honoured',
    rule: 'IMG-04',
    kind: 'status',
    description: 'scheme, imageset and compression are silently accepted (200).',
    apply: switches({ removedImageParamsServed: true }),
  },
  {
    name: 'removed-modes-served',
    rule: 'IMG-04',
    kind: 'status',
    description: 'The removed modes data and data-utfhack still answer 200 with a data URI.',
    apply: rewrite(['*'], (r) =>
      r.code === 'REMOVED_MODE' ? { status: 200, body: { dataUri: 'data:image/png;base64,' } } : r,
    ),
  },
  {
    name: 'removed-parameter-unnamed',
    rule: 'IMG-04',
    kind: 'value',
    description: 'A removed parameter gets 400 with a generic message that does not name it.',
    apply: rewrite(
      IMAGE_OPERATIONS,
      onStatus(400, (b) => void (/removed in v2/.test(String(b.message)) && (b.message = 'Invalid request'))),
    ),
  },
  {
    name: 'debug-mode-gone',
    rule: 'IMG-04',
    kind: 'status',
    description: 'Mode debug answers 404, removed along with data and data-utfhack.',
    apply: rewrite(['getImageDebug'], (r) =>
      r.status === 200 ? { status: 404, body: { message: 'No such endpoint' } } : r,
    ),
  },
  {
    name: 'composite-images-served',
    rule: 'IMG-05',
    kind: 'status',
    description: 'The removed /images/:uri,:uri endpoint still answers 200 (an empty JSON list).',
    apply: rewrite(['*'], (r, req) =>
      r.code === 'UNKNOWN_PATH' && /\/images\/[^/]+,[^/]+$/.test(req.path) ? { status: 200, body: [] } : r,
    ),
  },
  {
    name: 'composite-redirects-to-first',
    rule: 'IMG-05',
    kind: 'protocol',
    description:
      'The removed /images/:uri,:uri endpoint redirects (302) to the raw first image instead of 404.',
    apply: rewrite(['*'], (r, req) => {
      const first = /^(.*\/images)\/([^/,]+),[^/]+$/.exec(req.path);
      return r.code === 'UNKNOWN_PATH' && first
        ? { status: 302, headers: { Location: `${first[1]}/raw/${first[2]}` }, body: { message: 'Moved' } }
        : r;
    }),
  },
  {
    name: 'metadata-with-cache',
    rule: 'IMG-06',
    kind: 'shape',
    description: 'The metadata response still carries the v1 cache property.',
    apply: rewrite(['getImageMetadata'], (r) =>
      r.status === 200 && r.body instanceof PendingBytes
        ? {
            ...r,
            body: r.body.map((bytes) =>
              Buffer.from(JSON.stringify({ ...JSON.parse(bytes.toString()), cache: { maxAge: 604800 } })),
            ),
          }
        : r,
    ),
  },
  {
    name: 'image-limits-unchecked',
    rule: 'IMG-07',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'Images above the size limits are attempted and fail with 500.',
    apply: switches({ imageLimitsUnchecked: true }),
  },
  {
    name: 'side-limit-65536',
    rule: 'IMG-07',
    // No JPEG or GIF holds a side of 65,536 pixels: a transform let through at that size cannot
    // be served in the format its Content-Type names (IMG-01).
    alsoBreaks: ['IMG-01'],
    kind: 'value',
    description: 'Width and height are checked against 65,536 (a 16-bit limit), not 65,000.',
    apply: switches({ sideLimit65536: true }),
  },
  {
    name: 'pixel-limit-before-dpr',
    rule: 'IMG-07',
    kind: 'value',
    description:
      'The limits are checked before dpr multiplies the size: 4,000 x 4,000 at dpr 2 (64 megapixels) passes.',
    apply: switches({ limitsBeforeDpr: true }),
  },
  {
    name: 'pixel-limit-25-million',
    rule: 'IMG-07',
    kind: 'value',
    description: 'The pixel limit is 25,000,000, not 25 megapixels (26,214,400): 5,120 x 5,120 is refused.',
    apply: switches({ pixelLimit25Million: true }),
  },
  {
    name: 'source-limit-inclusive',
    rule: 'IMG-07',
    kind: 'value',
    description: 'A source of exactly 20 MB is refused: the check is "at least 20 MB", not "above".',
    apply: switches({ sourceLimitInclusive: true }),
  },
  {
    name: 'metadata-limits-unchecked',
    rule: 'IMG-07',
    alsoBreaks: SERVER_ERROR,
    kind: 'status',
    description: 'Mode metadata skips the limits raw checks: too large a transform fails there with 500.',
    apply: switches({ metadataLimitsUnchecked: true }),
  },
];
