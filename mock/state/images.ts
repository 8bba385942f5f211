import type { Random } from './random.ts';

export interface SourceImage {
  uri: string;
  width: number;
  height: number;
  format: 'png' | 'jpg' | 'svg';
  colour: [number, number, number];
  /** Size of the source file: above 20 MB the service refuses it. */
  bytes: number;
}

/** The images the mock's image service knows, by URI: custom `ftcms:` URIs and plain https URLs. */
export function makeImages(random: Random): SourceImage[] {
  const colour = (): [number, number, number] => [random.int(0, 255), random.int(0, 255), random.int(0, 255)];
  return [
    {
      uri: `ftcms:${random.uuid()}`,
      width: 2048,
      height: 1152,
      format: 'jpg',
      colour: colour(),
      bytes: 412_000,
    },
    {
      uri: `ftcms:${random.uuid()}`,
      width: 640,
      height: 640,
      format: 'png',
      colour: colour(),
      bytes: 96_000,
    },
    {
      uri: 'https://images.example.org/brand/logo.svg',
      width: 120,
      height: 40,
      format: 'svg',
      colour: [51, 48, 46],
      bytes: 2_400,
    },
    {
      uri: `ftcms:${random.uuid()}`,
      width: 12_000,
      height: 8_000,
      format: 'jpg',
      colour: colour(),
      bytes: 24_000_000,
    },
  ];
}
