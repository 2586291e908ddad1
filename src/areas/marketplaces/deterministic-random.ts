import { fnv1a } from '../../store/stable-hash.js';
// Series (prices, ranks, offers) are derived from a per-item seed instead of stored, so they can extend as the
// sandbox clock moves without a faker instance, and the same (seed, day) always gives the same point.

/** FNV-1a hash of the parts: turns (item seed, stream name, day) into an independent 32-bit seed. */
export function hashSeed(...parts: Array<string | number>): number {
  return fnv1a(parts.join('|'));
}

/** mulberry32: a tiny, fast PRNG whose whole state is one 32-bit number, so it can be re-created from a hash. */
export function randomStream(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One uniform draw in [0, 1) addressed by its parts (e.g. item seed, 'price', week): random access into a series. */
export function unitAt(...parts: Array<string | number>): number {
  return randomStream(hashSeed(...parts))();
}

/** A v4-shaped UUID addressed by its parts, for derived records (offers, sellers) whose id must be stable. */
export function uuidFrom(...parts: Array<string | number>): string {
  const next = randomStream(hashSeed(...parts));
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(next() * 4)]!;
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
