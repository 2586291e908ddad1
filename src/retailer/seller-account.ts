import type { Faker } from '@faker-js/faker';
import { newFaker } from '../store/new-faker.js';
import type { RetailerListing } from './record-types.js';
import { accountSeed } from './seed-hash.js';
import { listingAttributes } from './listing-attributes.js';
import type { CatalogItem, RetailerOrder, SellerAccount } from './seller-account-types.js';

/** How much a generated seller account holds; small enough to build on first use, big enough to page through. */
export const WORLD_SIZE = { catalog: 60, listings: 36, orders: 75 } as const;

const PRODUCT_TYPES = ['SHOES', 'SHIRT', 'KITCHEN', 'TOYS_AND_GAMES', 'HOME', 'BOOK', 'SPORTING_GOODS'] as const;
const ORDER_STATUSES: RetailerOrder['status'][] = ['Shipped', 'Shipped', 'Shipped', 'Unshipped', 'Pending', 'PartiallyShipped', 'Canceled'];
const upper = (f: Faker, length: number) => f.string.alphanumeric({ length, casing: 'upper' });

function catalogItem(f: Faker): CatalogItem {
  const asin = `B0${upper(f, 8)}`;
  const productType = f.helpers.arrayElement(PRODUCT_TYPES);
  const upc = f.string.numeric({ length: 12, allowLeadingZeros: true });
  const identifiers: CatalogItem['identifiers'] = [
    { type: 'UPC', value: upc },
    { type: 'EAN', value: `0${upc}` },
    { type: 'GTIN', value: `00${upc}` },
  ];
  if (productType === 'BOOK') identifiers.push({ type: 'ISBN', value: f.commerce.isbn({ variant: 13, separator: '' }) });
  return {
    asin,
    title: f.commerce.productName(),
    brand: f.company.name().split(/[ ,-]/)[0]!,
    product_type: productType,
    classification: f.commerce.department(),
    identifiers,
    main_image_url: `https://images.retailer.example/${asin}/main.jpg`,
    thumbnail_image_url: `https://images.retailer.example/${asin}/thumb.jpg`,
    sales_rank: f.number.int({ min: 50, max: 250_000 }),
    list_price: f.number.float({ min: 5, max: 250, fractionDigits: 2 }),
  };
}

function listing(f: Faker, item: CatalogItem, refDate: Date, prefix: string): RetailerListing {
  const created = f.date.past({ years: 2, refDate }).toISOString();
  const price = Math.round(item.list_price * f.number.float({ min: 0.8, max: 1, fractionDigits: 2 }) * 100) / 100;
  return {
    sku: `${prefix}-${upper(f, 6)}`,
    asin: item.asin,
    product_type: item.product_type,
    attributes: listingAttributes(item.title, price, f.number.int({ min: 0, max: 120 }), f.helpers.arrayElement(['DEFAULT', 'AMAZON_NA'])),
    created_at: created,
    updated_at: f.date.between({ from: created, to: refDate }).toISOString(),
  };
}

function order(f: Faker, listings: RetailerListing[], catalog: Map<string, CatalogItem>, refDate: Date): RetailerOrder {
  const purchase = f.date.recent({ days: 120, refDate });
  const lines = f.helpers.arrayElements(listings, { min: 1, max: 3 }).map((l) => ({
    order_item_id: f.string.numeric(14),
    sku: l.sku,
    asin: l.asin,
    title: catalog.get(l.asin ?? '')?.title ?? l.sku,
    quantity: f.number.int({ min: 1, max: 3 }),
    unit_price: catalog.get(l.asin ?? '')?.list_price ?? 19.99,
  }));
  return {
    order_id: `${f.string.numeric(3)}-${f.string.numeric(7)}-${f.string.numeric(7)}`,
    purchase_date: purchase.toISOString(),
    last_update_date: f.date.between({ from: purchase, to: refDate }).toISOString(),
    status: f.helpers.arrayElement(ORDER_STATUSES),
    fulfillment_channel: f.helpers.arrayElement(['MFN', 'AFN'] as const),
    lines,
    buyer_city: f.location.city(),
    buyer_state: f.location.state({ abbreviated: true }),
    buyer_postal_code: f.location.zipCode('#####'),
  };
}

/** Builds one channel's seller account from (seed, channel id): same inputs, same data, on every machine. */
export function generateSellerAccount(seed: number, channelId: string, refDate: Date): SellerAccount {
  const f = newFaker();
  f.seed(accountSeed(seed, channelId));
  f.setDefaultRefDate(refDate);
  const storeName = f.company.name();
  const prefix = storeName
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 3)
    .toUpperCase()
    .padEnd(3, 'X');
  const catalog = Array.from({ length: WORLD_SIZE.catalog }, () => catalogItem(f));
  const listings = catalog.slice(0, WORLD_SIZE.listings).map((item) => listing(f, item, refDate, prefix));
  const byAsin = new Map(catalog.map((c) => [c.asin, c]));
  const orders = Array.from({ length: WORLD_SIZE.orders }, () => order(f, listings, byAsin, refDate)).sort(
    (a, b) => a.purchase_date.localeCompare(b.purchase_date) || a.order_id.localeCompare(b.order_id),
  );
  return { seller_id: `A${upper(f, 13)}`, store_name: storeName, catalog, listings, orders };
}
