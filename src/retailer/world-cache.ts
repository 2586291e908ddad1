import { generateWorld } from './world.js';
import type { RetailerWorld } from './world-types.js';

/**
 * Worlds are materialised on first use and kept, bounded, because generating one costs a few milliseconds and
 * a relay call should not. Generated data is immutable, so sharing it is safe.
 */
export class WorldCache {
  private readonly worlds = new Map<string, RetailerWorld>();

  constructor(
    private readonly seed: number,
    private readonly refDate: Date,
    private readonly capacity = 256,
  ) {}

  get(channelId: string): RetailerWorld {
    const cached = this.worlds.get(channelId);
    if (cached) return cached;
    const world = generateWorld(this.seed, channelId, this.refDate);
    if (this.worlds.size >= this.capacity) this.worlds.delete(this.worlds.keys().next().value!);
    this.worlds.set(channelId, world);
    return world;
  }

  forget(channelId: string): void {
    this.worlds.delete(channelId);
  }
}
