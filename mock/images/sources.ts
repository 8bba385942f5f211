import { Random } from '../state/random.ts';
import { hex, type Rgb } from './formats.ts';

/** A source file of the image service as its store describes it: format, pixels, and size in bytes. */
export interface SourceFile {
  format: 'jpg' | 'png' | 'gif' | 'svg';
  width: number;
  height: number;
  bytes: number;
}

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">' +
  '<circle cx="20" cy="20" r="14" fill="#990f3d"/>' +
  '<path d="M42 10h70v8H42zM42 24h52v8H42z" fill="#33302e"/></svg>';

/**
 * The project's source images, described without making them: a request's limits are checked on
 * this alone. A made file is padded after its end marker (decoders stop there) to the size stated,
 * so the size is known before the pixels are.
 */
export const SOURCE_FILES = {
  /** A landscape that looks photographed: sky, a hilly horizon, a sun's glow, grain. */
  photo: { format: 'jpg', width: 1024, height: 683, bytes: 128_000 },
  /** A cut-out on a transparent ground: a shaded disc and a translucent band. */
  cutout: { format: 'png', width: 640, height: 640, bytes: 64_000 },
  /** A banner of stripes, as GIFs are: few colours. */
  banner: { format: 'gif', width: 480, height: 320, bytes: 12_000 },
  /** A brand logo in two colours on a transparent ground, as SVG text. */
  logo: { format: 'svg', width: 120, height: 40, bytes: Buffer.byteLength(LOGO) },
} satisfies Record<string, SourceFile>;
export type SourceName = keyof typeof SOURCE_FILES;

/** The pixels are the project's own, the same in every run and every mock (the mock's seed names them). */
const PIXEL_SEED = 2026;

/** A fast seeded noise for a million pixels; the project's Random seeds it. */
function noise(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}

type Sharp = (typeof import('sharp'))['default'];

function photo(sharp: Sharp, random: Random): Promise<Buffer> {
  const { width, height } = SOURCE_FILES.photo;
  const grain = noise(random.int(1, 2 ** 31));
  const [phase, sunX, sunY] = [random.int(0, 628) / 100, random.int(200, 800), random.int(80, 220)];
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const horizon = height * 0.58 + 38 * Math.sin(x / 95 + phase) + 17 * Math.sin(x / 31 + 2 * phase);
      const glow = Math.max(0, 1 - Math.hypot(x - sunX, y - sunY) / 260) ** 2;
      const t = y < horizon ? y / horizon : (y - horizon) / (height - horizon);
      const base: Rgb =
        y < horizon
          ? [70 + 130 * t + 150 * glow, 120 + 95 * t + 110 * glow, 190 + 40 * t + 40 * glow]
          : [96 - 40 * t, 128 - 50 * t + 12 * Math.sin(x / 7), 60 - 30 * t];
      const n = (grain() - 0.5) * 26;
      for (let c = 0; c < 3; c++) raw[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, base[c]! + n));
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(0.7)
    .jpeg({ quality: 88 })
    .toBuffer();
}

const colour = (random: Random): string => hex([random.int(0, 255), random.int(0, 255), random.int(0, 255)]);

function cutout(sharp: Sharp, random: Random): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="640">
  <defs><radialGradient id="g" cx="40%" cy="35%" r="65%">
    <stop offset="0" stop-color="${colour(random)}"/><stop offset="1" stop-color="${colour(random)}"/>
  </radialGradient></defs>
  <circle cx="320" cy="300" r="240" fill="url(#g)"/>
  <rect x="60" y="460" width="520" height="110" rx="28" fill="${colour(random)}" fill-opacity="0.6"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function banner(sharp: Sharp, random: Random): Promise<Buffer> {
  const stripes = Array.from(
    { length: 8 },
    (_, i) => `<rect x="${i * 60}" width="60" height="320" fill="${colour(random)}"/>`,
  ).join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">${stripes}` +
    `<circle cx="240" cy="160" r="90" fill="${colour(random)}"/></svg>`;
  return sharp(Buffer.from(svg)).gif({ effort: 1 }).toBuffer();
}

/** The made file, grown to the size its description states. */
function padded(name: SourceName, bytes: Buffer, size: number = SOURCE_FILES[name].bytes): Buffer {
  if (bytes.length > size)
    throw new Error(`The ${name} source came out at ${bytes.length} bytes, above ${size}`);
  return Buffer.concat([bytes, Buffer.alloc(size - bytes.length)]);
}

async function generate(): Promise<Record<SourceName, Buffer>> {
  // sharp is loaded with the first image asked for: a mock that serves none never pays for it.
  const { default: sharp } = await import('sharp');
  const random = new Random(PIXEL_SEED);
  const made = { photo: photo(sharp, random), cutout: cutout(sharp, random), banner: banner(sharp, random) };
  return {
    photo: padded('photo', await made.photo),
    cutout: padded('cutout', await made.cutout),
    banner: padded('banner', await made.banner),
    logo: Buffer.from(LOGO),
  };
}

let sources: Promise<Record<SourceName, Buffer>> | undefined;

/** A source's bytes, made once per process on first use: about a tenth of a second for all four. */
export function sourceBytes(name: SourceName): Promise<Buffer> {
  return (sources ??= generate()).then((all) => all[name]);
}

/**
 * The photo grown to exactly `size` bytes: how the mock has sources at and just past the 20 MB
 * limit without shipping one. Made each time a request reads it, never kept.
 */
export async function paddedPhoto(size: number): Promise<Buffer> {
  return padded('photo', await sourceBytes('photo'), size);
}
