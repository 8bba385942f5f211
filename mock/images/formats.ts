/** The formats the image service serves, and how their names map between the query, HTTP and sharp. */
export type ImageFormat = 'png' | 'gif' | 'jpg' | 'webp' | 'svg';
export type Rgb = [number, number, number];

export const MEDIA_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/** The `quality` values of the contract, as an encoder's 1-100 scale. */
export const QUALITIES = { lowest: 20, low: 40, medium: 60, high: 80, highest: 95, lossless: 100 } as const;
export type Quality = keyof typeof QUALITIES;

/** `ff0000` or `f00` as red, green and blue. */
export function rgb(hex: string): Rgb {
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16)) as Rgb;
}

export function hex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
