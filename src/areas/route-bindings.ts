import { findVisibleCatalogItem } from './marketplaces/catalog-access.js';
import type { SupplierRecord } from './sourcing/records.js';
import type { PathParameterName } from './handler-map.js';
import type { Clock } from '../world.js';
import type { Collections } from './collections.js';
import type { Worlds } from '../worlds.js';

/** What a binding may read to find its record: the request's world and the registry of worlds. */
export interface BindingScope {
  store: Collections;
  clock: Clock;
  worlds: Worlds;
}

/**
 * How one path parameter becomes a record, as in Laravel's implicit route-model binding: `find` answers the record
 * or undefined (the step answers 404 "<What> not found."), and `merchantOf` names the merchant whose members alone
 * may use it (anyone else: 403, or 404 where the operation documents no 403). Without `merchantOf` the record is
 * shared (catalog items) or is checked through an earlier parameter it must belong to (`earlier`).
 */
export interface RouteBinding<R> {
  what: string;
  find(scope: BindingScope, id: string, earlier: Readonly<Record<string, unknown>>): R | undefined;
  merchantOf?(record: R, scope: BindingScope): string | undefined;
}

/** Typed construction of one binding: the record type comes from `find`, and `merchantOf` is checked against it. */
export const binding = <R>(b: RouteBinding<R>): RouteBinding<R> => b;

/** Every path parameter name of the contract: a binding, or null for a parameter that names no record. */
export type RouteBindingTable = Readonly<Record<string, RouteBinding<unknown> | null>>;

/**
 * What every path parameter of the contract names, Laravel-style: the parameter's name decides the record, the
 * same on every operation (`{channel}` is a channel wherever it appears), so one entry serves all operations that
 * carry it and a new operation needs no entry of its own. Keyed by the contract's path parameter names: the
 * compiler refuses a missing or unknown one. `null` names no record. Rules that depend on the operation (only an
 * owner may delete a merchant) and on the body (uniqueness, references in a body) stay in the handlers.
 */
export const routeBindings = {
  merchant: binding({ what: 'merchant', find: ({ store }, id) => store.merchants.get(id), merchantOf: (merchant) => merchant.id }),
  channel: binding({ what: 'channel', find: ({ store }, id) => store.channels.get(id), merchantOf: (channel) => channel.merchant_id }),
  product: binding({ what: 'product', find: ({ store }, id) => store.products.get(id), merchantOf: (product) => product.merchant_id }),
  product_identifier: binding({
    what: 'product identifier',
    find: ({ store }, id) => store.product_identifiers.get(id),
    merchantOf: (identifier, { store }) => store.products.get(identifier.product_id)?.merchant_id,
  }),
  supplier: binding({ what: 'supplier', find: ({ store }, id) => store.suppliers.get(id), merchantOf: (supplier) => supplier.merchant_id }),
  // Scoped to the supplier of the path (bound first, with its membership check): another supplier's request is 404.
  supplier_scraping_request: binding({
    what: 'scraping request',
    find: ({ store }, id, earlier) => {
      const request = store.scraping_requests.get(id);
      return request && request.supplier_id === (earlier.supplier as SupplierRecord).id ? request : undefined;
    },
  }),
  supplier_item: binding({ what: 'supplier item', find: ({ store }, id) => store.supplier_items.get(id), merchantOf: (item) => item.merchant_id }),
  supplier_item_identifier: binding({
    what: 'supplier item identifier',
    find: ({ store }, id) => store.supplier_item_identifiers.get(id),
    merchantOf: (identifier, { store }) => store.supplier_items.get(identifier.supplier_item_id)?.merchant_id,
  }),
  // Shared reference data: visible as of the world's clock, readable by every caller.
  marketplace_catalog_item: binding({ what: 'catalog item', find: ({ store, clock }, id) => findVisibleCatalogItem(store, clock.now(), id) }),
  // The control plane's own: a live workspace (naming it keeps it alive no longer; the caller was checked already), or `default` for the default world (as `?workspace=default` names it).
  workspace: binding({ what: 'workspace', find: ({ worlds }, id) => worlds.namedWorld(id) }),
  // A user of the world the control-plane call acts on (its owner token, or the admin's, was checked already).
  user: binding({ what: 'user', find: ({ store }, id) => store.users.get(id) }),
  // The relay's retailer path, not a record.
  endpoint: null,
} as const satisfies { readonly [P in PathParameterName]: RouteBinding<unknown> | null };

type Table = typeof routeBindings;

/** The record type each bound path parameter resolves to, for handlers' `input.bound`. */
export type BoundRecordTypes = {
  [P in keyof Table as Table[P] extends null ? never : P]: Table[P] extends RouteBinding<infer R> ? R : never;
};
