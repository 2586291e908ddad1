import { fnv1a } from '../store/stable-hash.js';

/** The faker seed of one channel's seller account at the retailer: the same seed and channel always give the same data. */
export const accountSeed = (seed: number, channelId: string): number => fnv1a(`${seed}:retailer:${channelId}`);
