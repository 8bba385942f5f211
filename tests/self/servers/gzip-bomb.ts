import { constants, crc32, deflateRawSync } from 'node:zlib';

/** What the bomb inflates to: `{"bomb":"` + ~1 GiB of spaces + `"}`. */
export const BOMB_PREFIX = '{"bomb":"';
export const BOMB_SUFFIX = '"}';
const BLOCK = 1024 * 1024;
const BLOCKS = 1024;
export const BOMB_INFLATED_BYTES = BOMB_PREFIX.length + BLOCK * BLOCKS + BOMB_SUFFIX.length;

export interface GzipBomb {
  /** The gzip member in order; the middle part is one small segment repeated, never copied. */
  parts: Buffer[];
  bytes: number;
}

let built: GzipBomb | undefined;

/**
 * One valid gzip member (about 1 MB) that inflates to ~1 GiB of JSON, built once per process. Each
 * deflate segment ends with a sync flush (byte-aligned, not final), so repeating one segment still
 * gives a valid stream; the trailer's CRC and size are those of the whole inflated text.
 */
export function gzipBomb(): GzipBomb {
  if (built) return built;
  const partial = { finishFlush: constants.Z_SYNC_FLUSH, level: 9 };
  const spaces = Buffer.alloc(BLOCK, 0x20);
  const head = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);
  const prefix = deflateRawSync(Buffer.from(BOMB_PREFIX), partial);
  const block = deflateRawSync(spaces, partial);
  const suffix = deflateRawSync(Buffer.from(BOMB_SUFFIX), { level: 9 });
  let crc = crc32(BOMB_PREFIX);
  for (let i = 0; i < BLOCKS; i++) crc = crc32(spaces, crc);
  crc = crc32(BOMB_SUFFIX, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(BOMB_INFLATED_BYTES % 2 ** 32, 4);
  const parts = [head, prefix, ...Array<Buffer>(BLOCKS).fill(block), suffix, trailer];
  built = { parts, bytes: parts.reduce((sum, part) => sum + part.length, 0) };
  return built;
}
