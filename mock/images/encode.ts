import { deflateSync } from 'node:zlib';

/**
 * Minimal encoders for flat-colour images: enough for the mock to serve real, decodable bytes in
 * each format of the image service (the pixels are one colour; the format is what clients check).
 */
export type Rgb = [number, number, number];
export type ImageFormat = 'png' | 'gif' | 'jpg' | 'webp' | 'svg';

export const MEDIA_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function png(width: number, height: number, [r, g, b]: Rgb): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Writes codes of any width, least significant bit first (GIF) or most significant first (JPEG). */
class Bits {
  private readonly bytes: number[] = [];
  private acc = 0;
  private count = 0;

  constructor(private readonly msbFirst: boolean) {}

  write(value: number, width: number): void {
    for (let i = 0; i < width; i++) {
      const bit = this.msbFirst ? (value >> (width - 1 - i)) & 1 : (value >> i) & 1;
      this.acc = this.msbFirst ? (this.acc << 1) | bit : this.acc | (bit << this.count);
      if (++this.count === 8) this.flushByte();
    }
  }

  private flushByte(): void {
    this.bytes.push(this.acc & 0xff);
    // JPEG byte stuffing: a 0xFF in entropy-coded data is followed by 0x00.
    if (this.msbFirst && (this.acc & 0xff) === 0xff) this.bytes.push(0);
    this.acc = 0;
    this.count = 0;
  }

  end(): Buffer {
    if (this.count > 0) {
      if (this.msbFirst) this.acc = (this.acc << (8 - this.count)) | ((1 << (8 - this.count)) - 1);
      this.flushByte();
    }
    return Buffer.from(this.bytes);
  }
}

/**
 * GIF: a two-colour palette and LZW with a clear code after every two pixels, so every code keeps
 * the first width (3 bits) and no dictionary is needed.
 */
export function gif(width: number, height: number, [r, g, b]: Rgb): Buffer {
  const bits = new Bits(false);
  const CLEAR = 4;
  const END = 5;
  for (let i = 0; i < width * height; i++) {
    if (i % 2 === 0) bits.write(CLEAR, 3);
    bits.write(0, 3);
  }
  bits.write(END, 3);
  const data = bits.end();
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const block = data.subarray(at, at + 255);
    blocks.push(Buffer.from([block.length]), block);
  }
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen.set([0x81, 0, 0], 4); // global palette of 4 entries
  const image = Buffer.alloc(10);
  image[0] = 0x2c;
  image.writeUInt16LE(width, 5);
  image.writeUInt16LE(height, 7);
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    screen,
    Buffer.from([r, g, b, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    image,
    Buffer.from([2]),
    ...blocks,
    Buffer.from([0, 0x3b]),
  ]);
}

function segment(marker: number, data: number[]): Buffer {
  return Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff, ...data]);
}

/**
 * Baseline JPEG of flat 8x8 blocks: each block has only its DC coefficient, so one small Huffman
 * table for DC categories and a one-symbol table for end-of-block are all it needs.
 */
export function jpeg(width: number, height: number, [r, g, b]: Rgb): Buffer {
  const ycc = [
    0.299 * r + 0.587 * g + 0.114 * b,
    -0.1687 * r - 0.3313 * g + 0.5 * b + 128,
    0.5 * r - 0.4187 * g - 0.0813 * b + 128,
  ].map((v) => Math.round(8 * (Math.min(255, Math.max(0, v)) - 128)));
  const bits = new Bits(true);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  for (let block = 0; block < blocks; block++) {
    for (const dc of ycc) {
      const diff = block === 0 ? dc : 0;
      const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
      bits.write(category, 4);
      if (category > 0) bits.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
      bits.write(0, 1);
    }
  }
  const counts = (lengths: Record<number, number>) =>
    Array.from({ length: 16 }, (_, i) => lengths[i + 1] ?? 0);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0, ...Array.from({ length: 64 }, () => 1)]),
    segment(0xc0, [
      8,
      height >> 8,
      height & 0xff,
      width >> 8,
      width & 0xff,
      3,
      1,
      0x11,
      0,
      2,
      0x11,
      0,
      3,
      0x11,
      0,
    ]),
    segment(0xc4, [
      0x00,
      ...counts({ 4: 12 }),
      ...Array.from({ length: 12 }, (_, i) => i),
      0x10,
      ...counts({ 1: 1 }),
      0,
    ]),
    segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    bits.end(),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A 1x1 lossless WebP: served to clients that ask for WebP; a placeholder whatever the size asked. */
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

export function webp(): Buffer {
  return WEBP;
}

export function svg(width: number, height: number, [r, g, b]: Rgb): Buffer {
  const fill = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${fill}"/></svg>`,
  );
}

export function encode(format: ImageFormat, width: number, height: number, colour: Rgb): Buffer {
  switch (format) {
    case 'png':
      return png(width, height, colour);
    case 'gif':
      return gif(width, height, colour);
    case 'jpg':
      return jpeg(width, height, colour);
    case 'webp':
      return webp();
    case 'svg':
      return svg(width, height, colour);
  }
}

/** The format the bytes are in, by their signature: what IMG-01 compares with `Content-Type`. */
export function sniff(bytes: Buffer): ImageFormat | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpg';
  if (/^GIF8[79]a/.test(bytes.subarray(0, 6).toString('latin1'))) return 'gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  if (/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(bytes.subarray(0, 200).toString('utf8'))) return 'svg';
  return undefined;
}
