import { DEFAULT_MARKETPLACE_ID } from '../../retailer/index.js';
import { DEMO_PRODUCT_ID } from '../products/fixture-ids.js';
import { seededConnector } from '../channels/seed.js';
import type { AreaSeedContext } from '../collections.js';
import { DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_ID } from '../sourcing/fixture-ids.js';
import * as spare from './fixture-ids.js';

const DEMO_MERCHANT_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const DEMO_OWNER_ID = '11111111-1111-4111-8111-111111111111';
const AT = '2024-06-01T10:00:00.000Z';
const stamps = { created_at: AT, updated_at: AT };

/**
 * The spares the destructive examples name, seeded last with fixed ids (they draw only channel tokens from their own
 * faker stream, so the other areas' records stay as they were): each is the only thing its example removes.
 */
export function seedSpares(s: AreaSeedContext): void {
  const { store } = s;
  store.merchants.insert({ id: spare.SPARE_MERCHANT_ID, name: 'Spare Outfitters', ...stamps });
  store.memberships.insert({
    id: 'de1e7e00-0000-4000-8000-000000000001',
    merchant_id: spare.SPARE_MERCHANT_ID,
    user_id: DEMO_OWNER_ID,
    role: 'owner',
    ...stamps,
  });
  store.users.insert({ id: spare.SPARE_MEMBER_USER_ID, name: 'Sam Spare', email: 'spare-member@demo.example', ...stamps });
  store.memberships.insert({
    id: 'de1e7e00-0000-4000-8000-000000000002',
    merchant_id: DEMO_MERCHANT_ID,
    user_id: spare.SPARE_MEMBER_USER_ID,
    role: 'member',
    ...stamps,
  });

  store.channels.insert({ id: spare.SPARE_CHANNEL_ID, merchant_id: DEMO_MERCHANT_ID, name: 'Demo Outfitters spare store', type: 'retailer', ...stamps });
  const revocable = store.channels.insert({
    id: spare.REVOCABLE_CHANNEL_ID,
    merchant_id: DEMO_MERCHANT_ID,
    name: 'Demo Outfitters revocable store',
    type: 'retailer',
    ...stamps,
  });
  seededConnector(s)(revocable, DEFAULT_MARKETPLACE_ID);

  store.products.insert({
    id: spare.SPARE_PRODUCT_ID,
    merchant_id: DEMO_MERCHANT_ID,
    sku: 'SPARE-0001',
    title: 'Spare product',
    main_image_id: null,
    thumbnail_image_id: null,
    ...stamps,
  });
  store.product_identifiers.insert({ id: spare.SPARE_PRODUCT_IDENTIFIER_ID, product_id: DEMO_PRODUCT_ID, type: 'UPC', value: '012345678905', ...stamps });

  store.suppliers.insert({ id: spare.SPARE_SUPPLIER_ID, merchant_id: DEMO_MERCHANT_ID, name: 'Spare Wholesale', default_currency: 'USD', ...stamps });
  store.supplier_items.insert({
    id: spare.SPARE_SUPPLIER_ITEM_ID,
    merchant_id: DEMO_MERCHANT_ID,
    supplier_id: DEMO_SUPPLIER_ID,
    sku: 'SPARE-ITEM-0001',
    description: 'Spare item',
    product_id: null,
    costs: [
      { id: 'de1e7e00-e3e3-4e3e-8e3e-e3e3e3e3e001', minimum_order_quantity: 1, cost: { value: 10, currency: 'USD' } },
      { id: 'de1e7e00-e3e3-4e3e-8e3e-e3e3e3e3e002', minimum_order_quantity: 10, cost: { value: 9, currency: 'USD' } },
    ],
    stock_quantity: null,
    ...stamps,
  });
  store.supplier_item_identifiers.insert({
    id: spare.SPARE_SUPPLIER_ITEM_IDENTIFIER_ID,
    supplier_item_id: DEMO_SUPPLIER_ITEM_ID,
    type: 'UPC',
    value: '036000291452',
    ...stamps,
  });
}
