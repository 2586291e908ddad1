// Data files for the benchmark, written directly (not through 10,000 HTTP calls): the seeded world, plus
// generated products of the demo merchant, saved as a snapshot by the sandbox's own file store.
import { randomUUID } from 'node:crypto';
import { DEFAULT_SEED } from '../src/config.js';
import type { ProductRecord } from '../src/areas/products/record-types.js';
import { JournalPersistence } from '../src/store/persistence-journal.js';
import { openWorld } from '../src/world.js';
import { MERCHANT } from './servers.js';
import { worldModel } from '../src/areas/world-model.js';

/** Writes a seeded store holding `products` products in all (at least the seed's own) and answers how many it holds. */
export async function writeStore(file: string, products: number): Promise<number> {
  const persistence = JournalPersistence.open(file);
  try {
    const world = await openWorld({ id: 'default', model: worldModel, persistence, seed: DEFAULT_SEED, reset: true });
    const store = world.store;
    const missing = products - store.collections.products.size;
    if (missing > 0) {
      store.apply(() => {
        const base = Date.UTC(2024, 7, 1);
        for (let i = 0; i < missing; i++) {
          const at = new Date(base + i * 1000).toISOString();
          const record: ProductRecord = {
            id: randomUUID(),
            merchant_id: MERCHANT,
            sku: `GROWN-${String(i).padStart(6, '0')}`,
            title: `Generated product ${i}`,
            main_image_id: null,
            thumbnail_image_id: null,
            created_at: at,
            updated_at: at,
          };
          store.collections.products.insert(record);
        }
      });
      await persistence.replaceAll(store.snapshot());
    }
    return store.collections.products.size;
  } finally {
    await persistence.close();
  }
}
