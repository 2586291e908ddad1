/** 32-bit FNV-1a: a stable, dependency-free hash that turns (seed, channel id) into a faker seed. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The faker seed of one channel's retailer world: the same seed and channel always give the same data. */
export const worldSeed = (seed: number, channelId: string): number => fnv1a(`${seed}:retailer:${channelId}`);
