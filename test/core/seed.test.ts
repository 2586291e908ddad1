import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPersistence } from '../../src/store/open-persistence.js';
import { MemoryPersistence } from '../../src/store/store.js';
import { openWorld } from '../../src/world.js';
import { worldModel } from '../../src/areas/world-model.js';

/** Seeds a real data file in a fresh folder and answers its bytes. */
async function seededFile(seed: number): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-seed-'));
  try {
    const dataFile = join(dir, 'sandbox.json');
    const world = await openWorld({ id: 'default', model: worldModel, persistence: openPersistence({ store: 'file', dataFile }), seed });
    await world.store.persistence.close();
    return readFileSync(dataFile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function seededJson(seed: number): Promise<string> {
  const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed });
  return JSON.stringify(world.store.snapshot(), null, 2);
}

/** Which collection a reference field points into; fields named here must always resolve. */
const references: Record<string, string> = {
  user_id: 'users',
  merchant_id: 'merchants',
};

describe('the seed', () => {
  it('When the same seed is used twice, then the store file is byte-identical', async () => {
    const [a, b] = [await seededFile(7), await seededFile(7)];
    expect(a.length).toBeGreaterThan(1000);
    expect(a.equals(b)).toBe(true);
  });

  it('When another seed is used, then the faker-made records differ but the fixtures stay', async () => {
    const a = await seededJson(7);
    const b = await seededJson(8);
    expect(a).not.toBe(b);
    for (const text of [a, b]) expect(text).toContain('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
  });

  it('When the world is seeded, then every reference points at a record that exists', async () => {
    const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: 20240901 });
    const snapshot = world.store.snapshot();
    const ids = Object.fromEntries(
      Object.entries(snapshot.collections).map(([name, records]) => [name, new Set((records as { id: string }[]).map((r) => r.id))]),
    );
    const dangling: string[] = [];
    for (const [name, records] of Object.entries(snapshot.collections)) {
      for (const record of records as Record<string, unknown>[]) {
        for (const [field, target] of Object.entries(references)) {
          const value = record[field];
          if (typeof value === 'string' && !ids[target]?.has(value)) dangling.push(`${name}.${field}=${value}`);
        }
      }
    }
    expect(dangling).toEqual([]);
  });
});
