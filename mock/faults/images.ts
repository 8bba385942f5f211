import { onStatus, rewrite, switches, type Fault } from './fault.ts';

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
    name: 'auto-ignores-webp',
    rule: 'IMG-02',
    kind: 'value',
    description: 'format=auto never serves WebP, whatever the client accepts.',
    notLive: 'The interface says auto "can" serve WebP: live, another format is drift, not a failure.',
    apply: switches({ serveWebp: false }),
  },
  {
    name: 'tint-ignored',
    rule: 'IMG-03',
    kind: 'value',
    description: 'tint is accepted but the pixels do not change.',
    apply: switches({ applyTint: false }),
  },
  {
    name: 'removed-parameters-honoured',
    rule: 'IMG-04',
    kind: 'status',
    description: 'scheme, imageset and compression are silently accepted (200).',
    apply: switches({ refuseRemovedImageParameters: false }),
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
    name: 'metadata-with-cache',
    rule: 'IMG-06',
    kind: 'shape',
    description: 'The metadata response still carries the v1 cache property.',
    apply: rewrite(
      ['getImageMetadata'],
      onStatus(200, (b) => void (b.cache = { maxAge: 604800 })),
    ),
  },
  {
    name: 'image-limits-unchecked',
    rule: 'IMG-07',
    kind: 'status',
    description: 'Images above the size limits are attempted and fail with 500.',
    apply: switches({ checkImageLimits: false }),
  },
];
