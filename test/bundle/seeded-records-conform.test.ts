// The gate a bundle's records pass is no stricter than the seeders and the API: every record of seeded worlds, and
// every record a scripted session or a channel's connection, authorization and relays add or change, meets its
// collection's check (no field beyond the stored ones, every limit of the create and update schemas, the stored
// fields' ranges).
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { BundleContract } from '../../src/sandbox/bundle-contract.js';
import { testApp } from '../helpers/app.js';
import { testBases } from '../helpers/test-world.js';
import { exported, newWorkspace, scriptedSession } from './session.js';
import request from 'supertest';
import { channels, connect, relayPath } from '../channels/support.js';

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
    expect(changedProblems(await exported(t, ws))).toEqual([]);
  }, 60_000);

  it('When channels are connected, authorized, relayed through and their retailer listings written, then every such record meets its check', async () => {
    const t = await testApp();
    await connect(t, channels.unconnected, { access_token_expires_at: '2024-09-02T00:00:00Z' });
    await request(t.app).get(`/2024-09/channels/retailer/${channels.connected}/get-auth-url`).set(t.auth('owner')).expect(200);
    const seller = t.runtime.resourcesOf(t.world).retailer().account(channels.connected).seller_id;
    await request(t.app)
      .put(relayPath(channels.connected, `listings%2F2021-08-01%2Fitems%2F${seller}%2FNEW-SKU-1`))
      .query({ marketplaceIds: 'ATVPDKIKX0DER' })
      .set(t.auth('owner'))
      .send({ productType: 'SHOES', requirements: 'LISTING', attributes: { item_name: [{ value: 'Trail Runner 2' }] } })
      .expect(200);
    await request(t.app)
      .post(relayPath(channels.connected, 'feeds%2F2021-06-30%2Ffeeds'))
      .set(t.auth('owner'))
      .send({ feedType: 'POST_PRODUCT_DATA', marketplaceIds: ['ATVPDKIKX0DER'], inputFeedDocumentId: 'doc-1' })
      .expect(200);
    const held = ['channel_connections', 'channel_calls', 'retailer_states', 'retailer_authorizations', 'retailer_grants'];
    for (const name of held) expect((t.store as unknown as Record<string, { all(): unknown[] }>)[name]!.all().length, name).toBeGreaterThan(0);
    expect(problemsOf(t.store as never)).toEqual([]);
  }, 60_000);
});

/** The problems of every record a bundle adds or changes. */
function changedProblems(bundle: Awaited<ReturnType<typeof exported>>): string[] {
  const out: string[] = [];
  for (const [name, changes] of Object.entries(bundle.changes)) {
    for (const record of [...changes.added, ...changes.changed]) {
      const problems = checks.get(name)!(record);
      if (Object.keys(problems).length > 0) out.push(`${name}: ${JSON.stringify(problems)}`);
    }
  }
  return out;
}
