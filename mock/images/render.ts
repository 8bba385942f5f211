import { availableParallelism } from 'node:os';
import type { FitEnum, Sharp } from 'sharp';
import { LIMITS } from '../behaviour.ts';
import { hex, QUALITIES, type ImageFormat, type Quality, type Rgb } from './formats.ts';

/** How the image meets the output size: cropped to cover it, stretched to it, or fitted and padded. */
export type Resize = 'crop' | 'stretch' | 'pad';

/** One transform, whole: the cache's key (with the source's URI) and all sharp needs besides the bytes. */
export interface RenderSpec {
  uri: string;
  source: { format: 'jpg' | 'png' | 'gif' | 'svg'; width: number; height: number };
  format: ImageFormat;
  /** The output's size in pixels, decided (and checked against the limits) before any work. */
  width: number;
  height: number;
  resize: Resize;
  quality: Quality | undefined;
  /** One colour, or two (dark and light, a duotone). */
  tint: Rgb[];
  bgcolor: Rgb | undefined;
}

/** No decoder reads more pixels than this: the sources are small, and a bad file is refused early. */
const MAX_INPUT_PIXELS = 50_000_000;
/** An SVG is drawn at most this large before it is resized: the output limit, and librsvg's side limit. */
const MAX_DRAWN_PIXELS = LIMITS.imageMaxPixels;
const MAX_DRAWN_SIDE = 32_000;
/** GIF has no quality: fewer colours stand for a lower one. */
const GIF_COLOURS: Record<Quality, number> = {
  lowest: 8,
  low: 16,
  medium: 64,
  high: 128,
  highest: 256,
  lossless: 256,
};
/**
 * The most any transform makes, whatever the switches in force: twice the 25-megapixel limit, so a
 * fault that lets a transform past the limit shows as a 200 without a run out of memory.
 */
const MAX_MADE_PIXELS = 2 * LIMITS.imageMaxPixels;
const MAX_MADE_SIDE = 2 * LIMITS.imageMaxSide;
/**
 * Above this many output pixels a cheaper kernel, and each encoder at its fastest (least effort,
 * no dithering, at most LARGE_COLOURS in a palette): a 25-megapixel GIF takes about a second,
 * where 128 dithered colours took six.
 */
const LARGE_OUTPUT = 4_000_000;
const LARGE_COLOURS = 16;
const FITS: Record<Resize, keyof FitEnum> = { crop: 'cover', stretch: 'fill', pad: 'contain' };
const WHITE: Rgb = [255, 255, 255];

/** Large transforms at once, at most: each holds up to a hundred megabytes while it is made. */
const SLOTS = Math.max(2, availableParallelism());
let busy = 0;
const waiting: (() => void)[] = [];

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (busy >= SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  busy++;
  try {
    return await work();
  } finally {
    busy--;
    waiting.shift()?.();
  }
}

/** An SVG served as SVG: sized, tinted and backed by editing its text; nothing is drawn. */
function svgText(source: Buffer, spec: RenderSpec): Buffer {
  const aspect = { crop: 'xMidYMid slice', stretch: 'none', pad: 'xMidYMid meet' }[spec.resize];
  let text = source
    .toString('utf8')
    .replace(
      /<svg\b([^>]*)>/,
      (_, attributes: string) =>
        `<svg${attributes.replace(/\s(width|height|preserveAspectRatio)="[^"]*"/g, '')} ` +
        `width="${spec.width}" height="${spec.height}" preserveAspectRatio="${aspect}">`,
    );
  // An SVG takes the one colour given: every painted fill and stroke.
  const [tint] = spec.tint;
  if (tint) text = text.replace(/\b(fill|stroke)="(?!none)[^"]*"/g, `$1="${hex(tint)}"`);
  if (spec.bgcolor)
    text = text.replace(/(<svg\b[^>]*>)/, `$1<rect width="100%" height="100%" fill="${hex(spec.bgcolor)}"/>`);
  return Buffer.from(text);
}

const channels = ([r, g, b]: Rgb, alpha = 1) => ({ r, g, b, alpha });

/** sharp, loaded with the first transform: a mock that serves no image never pays for it. */
type SharpConstructor = (typeof import('sharp'))['default'];
let loaded: Promise<SharpConstructor> | undefined;
const loadSharp = () => (loaded ??= import('sharp').then((module) => module.default));

/**
 * The source as pixels. An SVG is drawn once at the scale the box asks, within the drawing limits:
 * left to the resize, sharp would draw it at the box's scale, past librsvg's side limit for a thin box.
 */
async function decoded(sharp: SharpConstructor, input: Buffer, spec: RenderSpec): Promise<Sharp> {
  const { source, width, height } = spec;
  if (source.format !== 'svg') return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS });
  const drawn = Math.min(
    Math.max(width / source.width, height / source.height),
    Math.sqrt(MAX_DRAWN_PIXELS / (source.width * source.height)),
    MAX_DRAWN_SIDE / Math.max(source.width, source.height),
  );
  const { data, info } = await sharp(input, {
    limitInputPixels: MAX_INPUT_PIXELS,
    density: Math.max(1, 72 * drawn),
  })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

/** The sharp pipeline of a raster output: flatten, resize, tint, encode. */
async function pipeline(sharp: SharpConstructor, input: Buffer, spec: RenderSpec): Promise<Sharp> {
  const { width, height } = spec;
  const large = width * height > LARGE_OUTPUT;
  let image = await decoded(sharp, input, spec);
  // JPEG has no transparency: what is transparent becomes the background asked for, else white.
  const ground = spec.bgcolor ?? (spec.format === 'jpg' ? WHITE : undefined);
  if (ground) image = image.flatten({ background: hex(ground) });
  image = image.resize(width, height, {
    fit: FITS[spec.resize],
    background: ground ? channels(ground) : channels(WHITE, 0),
    kernel: large ? 'linear' : 'lanczos3',
  });
  const [dark, light] = spec.tint;
  if (dark && light) {
    // A duotone: luminance mapped from the first colour (shadows) to the second (highlights).
    const row = (c: number) =>
      [0.299, 0.587, 0.114].map((l) => ((light[c]! - dark[c]!) / 255) * l) as [number, number, number];
    image = image.recomb([row(0), row(1), row(2)]).linear([1, 1, 1], dark);
  } else if (dark) image = image.tint(hex(dark));
  return encode(image, spec.format, spec.quality, large);
}

function encode(image: Sharp, format: ImageFormat, quality: Quality | undefined, large: boolean): Sharp {
  const q = quality ? QUALITIES[quality] : QUALITIES.medium;
  const lossless = quality === 'lossless';
  const fewer = (colours: number) =>
    large ? { colours: Math.min(colours, LARGE_COLOURS), dither: 0 } : { colours };
  switch (format) {
    case 'jpg':
      return image.jpeg({ quality: q });
    case 'webp':
      return image.webp(
        lossless ? { lossless: true, effort: large ? 0 : 1 } : { quality: q, effort: large ? 0 : 2 },
      );
    case 'png':
      // Lossless unless a quality below "highest" asks for fewer colours.
      return quality && q < QUALITIES.highest
        ? image.png({ palette: true, quality: q, effort: 1, ...fewer(256) })
        : image.png({ compressionLevel: large ? 1 : 6 });
    case 'gif':
      return image.gif({ ...fewer(GIF_COLOURS[quality ?? 'highest']), effort: 1 });
    case 'svg':
      throw new Error('An SVG output is made from an SVG source only');
  }
}

/** Transformed images by transform: a repeated request costs a lookup. Bounded by count and bytes. */
class Lru {
  private readonly entries = new Map<string, { bytes: Promise<Buffer>; size: number }>();
  private size = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      return found.bytes;
    }
    const entry = { bytes: make(), size: 0 };
    this.entries.set(key, entry);
    void entry.bytes.then(
      (bytes) => {
        if (this.entries.get(key) !== entry) return;
        entry.size = bytes.length;
        this.size += bytes.length;
        this.evict();
      },
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    this.evict();
    return entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.size <= this.maxBytes) return;
      this.entries.delete(key);
      this.size -= entry.size;
    }
  }
}

const cache = new Lru(128, 64 * 1024 * 1024);

/** Forgets every transformed image: for a benchmark that measures transforms, not lookups. */
export function clearRenderCache(): void {
  cache.clear();
}

/** The transformed image's bytes: from the cache, or made with sharp from the source `load` reads. */
export function render(spec: RenderSpec, load: () => Promise<Buffer>): Promise<Buffer> {
  const make = async () => {
    if (spec.width * spec.height > MAX_MADE_PIXELS || Math.max(spec.width, spec.height) > MAX_MADE_SIDE)
      throw new Error('The image is too large to make');
    const [input, sharp] = await Promise.all([load(), loadSharp()]);
    return spec.format === 'svg' ? svgText(input, spec) : (await pipeline(sharp, input, spec)).toBuffer();
  };
  // Small transforms go straight to libuv's threads; large ones queue for a slot.
  return cache.get(JSON.stringify(spec), () =>
    spec.width * spec.height > LARGE_OUTPUT ? inSlot(make) : make(),
  );
}
