import {
  paddedPhoto,
  SOURCE_FILES,
  sourceBytes,
  type SourceFile,
  type SourceName,
} from '../images/sources.ts';
import type { Random } from './random.ts';

/** The largest source the service reads: 20 MB. */
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;

export interface SourceImage {
  uri: string;
  width: number;
  height: number;
  format: SourceFile['format'];
  /** Size of the source file: above 20 MB the service refuses it. */
  bytes: number;
  /** The file, read when a transform needs it. */
  load(): Promise<Buffer>;
}

const HOST = 'https://images.example.org';

function generated(uri: string, name: SourceName): SourceImage {
  return { uri, ...SOURCE_FILES[name], load: () => sourceBytes(name) };
}

/** The photo grown to `bytes`: described now, made each time a request reads it, never kept. */
function padded(uri: string, bytes: number): SourceImage {
  return { uri, ...SOURCE_FILES.photo, bytes, load: () => paddedPhoto(bytes) };
}

/**
 * The images the mock's image service knows, by URI: custom `ftcms:` URIs and plain https URLs on a
 * fictional host. The raster image first (the examples' `imageUri`); a source just past 20 MB
 * (`hugeImageUri`), and one of exactly 20 MB, the limit's edge.
 */
export function makeImages(random: Random): SourceImage[] {
  return [
    generated(`ftcms:${random.uuid()}`, 'photo'),
    generated(`ftcms:${random.uuid()}`, 'cutout'),
    generated(`${HOST}/brand/logo.svg`, 'logo'),
    padded(`ftcms:${random.uuid()}`, MAX_SOURCE_BYTES + 1),
    generated(`${HOST}/banners/stripes.gif`, 'banner'),
    padded(`${HOST}/archive/scan-20mb.jpg`, MAX_SOURCE_BYTES),
  ];
}
