import type { components } from '../contract/document/generated.js';
import type { RetailerListing } from './record-types.js';

/** Identifier kinds the retailer's catalog carries (the contract's IdentifierType). */
export type CatalogIdentifierType = components['schemas']['IdentifierType'];

/** A retailer catalog item (catalog API 2022-04-01), marketplace-agnostic. */
export interface CatalogItem {
  asin: string;
  title: string;
  brand: string;
  product_type: string;
  classification: string;
  identifiers: { type: CatalogIdentifierType; value: string }[];
  main_image_url: string;
  thumbnail_image_url: string;
  sales_rank: number;
  list_price: number;
}

/** One line of an order. */
export interface OrderLine {
  order_item_id: string;
  sku: string;
  asin: string | null;
  title: string;
  quantity: number;
  unit_price: number;
}

/** A seller order (orders API v0); amounts in the marketplace's currency, applied at presentation. */
export interface RetailerOrder {
  order_id: string;
  purchase_date: string;
  last_update_date: string;
  status: 'Pending' | 'Unshipped' | 'PartiallyShipped' | 'Shipped' | 'Canceled';
  fulfillment_channel: 'MFN' | 'AFN';
  lines: OrderLine[];
  buyer_city: string;
  buyer_state: string;
  buyer_postal_code: string;
}

/** Everything generated for one channel's seller account from (seed, channel id); never mutated. */
export interface SellerAccount {
  seller_id: string;
  store_name: string;
  catalog: CatalogItem[];
  listings: RetailerListing[];
  orders: RetailerOrder[];
}
