/**
 * Where a text falls in [0, 1), for a seed: FNV-1a over the seed and the text. The same seed and
 * text always fall in the same place, so a share of requests or items is picked without a draw
 * from the mock's random sources, and the seeded data stays as it was.
 */
export function placeOf(seed: number, text: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // FNV's last bits mix poorly: fold the high half in before taking a fraction.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return (hash >>> 0) / 2 ** 32;
}
