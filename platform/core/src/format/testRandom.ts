/** Seeded generators for property-style tests (no fast-check); not exported from the index. */
export function rng(seed = 42): () => number {
  let s = seed >>> 0;
  return () => {
    // mulberry32: small, fast and good enough to spread test inputs.
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = '0123456789abcXYZ ()-./,+$#_\u00e9\u20ac\u{1F600}\t\n';

export function randomString(next: () => number, maxLength = 24): string {
  const chars = [...ALPHABET];
  const n = Math.floor(next() * (maxLength + 1));
  let out = '';
  for (let i = 0; i < n; i++) out += chars[Math.floor(next() * chars.length)];
  return out;
}

export function randomInt(next: () => number, min: number, max: number): number {
  return min + Math.floor(next() * (max - min + 1));
}

export const RUNS = 500;
