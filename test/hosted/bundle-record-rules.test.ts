// A loaded world keeps the rules the API keeps between records, through the real server in hosted mode: a record
// refers only to records of its own merchant, and what a handler refuses twice (a SKU, an identifier, a membership,
// an email, a cost tier's quantity) is never in the world twice. Each bundle here loaded before (201).
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo } from '../helpers/app.js';
import { added, changedSeeded, emptyBundle, seeded, seededCount } from '../bundle/hostile-bundles.js';
import type { Bundle } from '../bundle/session.js';
import { hostedApp, loadRefused } from './support.js';

type Hosted = Awaited<ReturnType<typeof hostedApp>>;
type Rec = Record<string, unknown> & { id: string };

const RIVAL_MERCHANT = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const ofDemo = (r: Rec) => r.merchant_id === demo.merchant;
const ofRival = (r: Rec) => r.merchant_id === RIVAL_MERCHANT;
/** The ids of every seeded record of a collection that `where` accepts. */
function seededIds(collection: string, where: (r: Rec) => boolean): string[] {
  const ids: string[] = [];
  while (seededCount(collection, (r) => where(r) && !ids.includes(r.id)) > 0) ids.push(seeded(collection, (r) => where(r) && !ids.includes(r.id)).id);
  return ids;
}

describe('a loaded world keeps the rules the API keeps between records', () => {
  let h: Hosted;
  let valid: Bundle;

  beforeEach(async () => {
    h = await hostedApp({ workspaceCreatePerMinute: 100 });
    valid = await emptyBundle(h.app);
  });

  async function refusedNaming(b: Bundle, collection: string, says: RegExp) {
    const res = await loadRefused(h, b, (f) => f === `changes.${collection}`);
    const messages = res.body.errors?.[`changes.${collection}`] ?? [];
    expect(messages.join(' '), res.text.slice(0, 600)).toMatch(says);
  }

  it("When a supplier item refers to another merchant's product, then 422", async () => {
    const product = seeded('products', ofDemo);
    const b = changedSeeded(valid, 'supplier_items', (r) => void (r.product_id = product.id), ofRival);
    await refusedNaming(b, 'supplier_items', /product/);
  });

  it("When a supplier item refers to another merchant's supplier, then 422", async () => {
    const b = changedSeeded(valid, 'supplier_items', (r) => void (r.supplier_id = DEMO_SUPPLIER_ID), ofRival);
    await refusedNaming(b, 'supplier_items', /supplier/);
  });

  it('When two products of one merchant share a SKU, then 422', async () => {
    const product = seeded('products', ofDemo);
    const b = added(valid, 'products', [{ ...product, id: randomUUID() }]);
    await refusedNaming(b, 'products', new RegExp(`sku ${product.sku as string}`));
  });

  it("When a product's main or thumbnail image is another product's, or no image, then 422", async () => {
    const image = seeded('product_images');
    const b = changedSeeded(
      valid,
      'products',
      (r) => void (r.main_image_id = image.id),
      (r) => r.id !== image.product_id,
    );
    await refusedNaming(b, 'products', /main image id/);
    const c = changedSeeded(await emptyBundle(h.app), 'products', (r) => void (r.thumbnail_image_id = randomUUID()));
    await refusedNaming(c, 'products', /thumbnail image id/);
  });

  it('When two supplier items of one supplier share a SKU, then 422', async () => {
    const first = seeded('supplier_items', (r) => r.supplier_id === DEMO_SUPPLIER_ID && r.sku !== null);
    const b = changedSeeded(
      valid,
      'supplier_items',
      (r) => void (r.sku = first.sku),
      (r) => r.supplier_id === DEMO_SUPPLIER_ID && r.id !== first.id,
    );
    await refusedNaming(b, 'supplier_items', /sku/);
  });

  it("When a supplier item's cost tiers repeat a minimum_order_quantity, then 422", async () => {
    const b = changedSeeded(valid, 'supplier_items', (r) => {
      const costs = r.costs as Rec[];
      costs.push({ ...costs[0]!, id: randomUUID() });
    });
    await refusedNaming(b, 'supplier_items', /minimum_order_quantity/);
  });

  it("When a supplier item's cost tier has the id of another item's tier, then 422", async () => {
    const other = seeded('supplier_items');
    const tierId = (other.costs as Rec[])[0]!.id;
    const b = changedSeeded(
      valid,
      'supplier_items',
      (r) => void ((r.costs as Rec[])[0]!.id = tierId),
      (r) => r.id !== other.id,
    );
    await refusedNaming(b, 'supplier_items', new RegExp(`tier ${tierId}`));
  });

  it('When a product carries the same identifier twice, then 422', async () => {
    const identifier = seeded('product_identifiers');
    const b = added(valid, 'product_identifiers', [{ ...identifier, id: randomUUID() }]);
    await refusedNaming(b, 'product_identifiers', /identifier/);
  });

  it('When a supplier item carries the same identifier twice, then 422', async () => {
    const identifier = seeded('supplier_item_identifiers');
    const b = added(valid, 'supplier_item_identifiers', [{ ...identifier, id: randomUUID() }]);
    await refusedNaming(b, 'supplier_item_identifiers', /identifier/);
  });

  it('When a user is a member of one merchant twice, then 422', async () => {
    const membership = seeded('memberships');
    const b = added(valid, 'memberships', [{ ...membership, id: randomUUID() }]);
    await refusedNaming(b, 'memberships', /member/);
  });

  it('When a merchant is left without an owner (its owner membership deleted, or a merchant added with none), then 422', async () => {
    valid.changes.memberships = { added: [], changed: [], deleted: seededIds('memberships', (r) => r.merchant_id === RIVAL_MERCHANT && r.role === 'owner') };
    await refusedNaming(valid, 'memberships', new RegExp(`merchant ${RIVAL_MERCHANT} has no owner`));
    const merchant = { ...seeded('merchants'), id: randomUUID(), name: 'Nobody owns me' };
    await refusedNaming(added(await emptyBundle(h.app), 'merchants', [merchant]), 'memberships', new RegExp(`merchant ${merchant.id} has no owner`));
  });

  it('When two users share an email (in any case), then 422', async () => {
    const user = seeded('users');
    const b = added(valid, 'users', [{ ...user, id: randomUUID(), email: (user.email as string).toUpperCase() }]);
    await refusedNaming(b, 'users', /email/);
  });

  it("When the bundle deletes the demo owner (and its memberships), then 422: no request deletes a user, and the new workspace's owner token would answer 401", async () => {
    const owner = seeded('users', (r) => r.id === demo.owner.id);
    const b = valid;
    b.changes.users = { added: [], changed: [], deleted: [owner.id] };
    b.changes.memberships = { added: [], changed: [], deleted: seededIds('memberships', (r) => r.user_id === owner.id) };
    await refusedNaming(b, 'users.deleted.0', /no request deletes/);
  });

  it('When the bundle deletes a catalog item or a marketplace, then 422: no request deletes them', async () => {
    const item = seeded('catalog_items', (r) => seededCount('opportunity_forecasts', (f) => f.marketplace_catalog_item_id === r.id) === 0);
    valid.changes.catalog_items = { added: [], changed: [], deleted: [item.id] };
    await refusedNaming(valid, 'catalog_items.deleted.0', /no request deletes/);
  });

  it("When a scraping request's supplier is another merchant's, then 422", async () => {
    const b = changedSeeded(valid, 'scraping_requests', (r) => void (r.merchant_id = RIVAL_MERCHANT), ofDemo);
    await refusedNaming(b, 'scraping_requests', /supplier/);
  });

  it("When an opportunity forecast names another merchant's supplier item or a cost tier not of its item, then 422", async () => {
    const b = changedSeeded(valid, 'opportunity_forecasts', (r) => void (r.merchant_id = RIVAL_MERCHANT), ofDemo);
    await refusedNaming(b, 'opportunity_forecasts', /supplier item/);
    const c = changedSeeded(await emptyBundle(h.app), 'opportunity_forecasts', (r) => void (r.supplier_item_cost_id = randomUUID()), ofDemo);
    await refusedNaming(c, 'opportunity_forecasts', /cost tier/);
  });
});
