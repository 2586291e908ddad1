// The gate a bundle's records pass is no stricter than the seeders and the API: every record of seeded worlds, and
// every record a scripted session adds or changes, meets its collection's check (no field beyond the stored ones,
// every limit of the create and update schemas, the stored fields' ranges).
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { BundleContract } from '../../src/sandbox/bundle-contract.js';
import { testApp } from '../helpers/app.js';
import { testBases } from '../helpers/test-world.js';
import { exported, newWorkspace, scriptedSession } from './session.js';

const checks = new BundleContract(loadContract()).checks.recordChecks();

function problemsOf(collections: Record<string, { all(): { id: string }[] }>): string[] {
  const out: string[] = [];
  for (const [name, check] of checks) {
    for (const record of collections[name]!.all()) {
      const problems = check(record);
      if (Object.keys(problems).length > 0) out.push(`${name} ${record.id}: ${JSON.stringify(problems)}`);
    }
  }
  return out;
}

describe('the records a bundle may carry', () => {
  it.each([1, 42, 20240901])('When the world is seeded with %i, then every seeded record meets its collection check', (seed) => {
    const base = testBases.of(seed);
    expect(problemsOf(base.collections as never).slice(0, 10)).toEqual([]);
  });

  it('When a scripted session adds and changes records, then each meets its collection check', async () => {
    const t = await testApp();
    const ws = await newWorkspace(t);
    await scriptedSession(t, ws);
    const bundle = await exported(t, ws);
    const out: string[] = [];
    for (const [name, changes] of Object.entries(bundle.changes)) {
      for (const record of [...changes.added, ...changes.changed]) {
        const problems = checks.get(name)!(record);
        if (Object.keys(problems).length > 0) out.push(`${name}: ${JSON.stringify(problems)}`);
      }
    }
    expect(out).toEqual([]);
  }, 60_000);
});
