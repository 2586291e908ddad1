// Seeding runs faker over every area: a sandbox does it once per seed, into a frozen base that every workspace reads
// through (a copy-on-write view) and that resets of the default world copy. The bases belong to one sandbox (its
// Worlds), not to the process: two sandboxes share none, and closing one lets its bases go.
import { collectionDefs, type WorldStore } from './areas/collections.js';
import { seeders } from './areas/seeders.js';
import { MemoryPersistence } from './store/persistence-memory.js';
import type { Persistence, Snapshot } from './store/persistence.js';
import { seedStore } from './store/seed.js';
import { Store } from './store/store.js';

/** An empty store of the areas' collections; over `base`, a copy-on-write view of it. */
export const newWorldStore = (persistence: Persistence, seed: number, base?: WorldStore): WorldStore =>
  new Store(persistence, seed, collectionDefs, base);

/** The frozen seeded worlds of one sandbox, one per seed, each seeded on first use. */
export class SeededBases {
  private readonly bySeed = new Map<number, WorldStore>();

  /** The seeded world of a seed, frozen: the shared base of every workspace. */
  of(seed: number): WorldStore {
    let base = this.bySeed.get(seed);
    if (!base) {
      base = newWorldStore(new MemoryPersistence(), seed);
      seedStore(base, seeders);
      this.bySeed.set(seed, base.freeze());
    }
    return base;
  }

  /** The seeded state for a seed; callers get their own deep copy. */
  snapshot(seed: number): Snapshot {
    return structuredClone(this.of(seed).snapshot());
  }

  /** The seeds that have a base now. */
  seeds(): number[] {
    return [...this.bySeed.keys()];
  }

  /** Lets every base go: views made from one keep it as long as they live; the next use seeds again. */
  clear(): void {
    this.bySeed.clear();
  }
}
