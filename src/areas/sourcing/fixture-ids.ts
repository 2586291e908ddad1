// Stable ids of a few demo sourcing records, so the contract's examples and the docs' try-it name records that exist.

/** The demo merchant's first supplier. */
export const DEMO_SUPPLIER_ID = 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001';
/** The first supplier item of the demo's first supplier. */
export const DEMO_SUPPLIER_ITEM_ID = 'e2e2e2e2-e2e2-4e2e-8e2e-e2e2e2e2e001';
/** The lowest cost tier of that item: a supplier_item_cost_id forecasting examples can use. */
export const DEMO_SUPPLIER_ITEM_COST_ID = 'e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e001';
/**
 * That item's stock: nearly sold out, so the demo's seeded forecast on its pinned tier shows
 * low_supplier_stock_under_1_week (its catalogue entry publishes no stock, so scraping leaves it).
 */
export const DEMO_SUPPLIER_ITEM_STOCK = 6;
/** The demo's first supplier's daily scraping request. */
export const DEMO_SCRAPING_REQUEST_ID = 'e5e5e5e5-e5e5-4e5e-8e5e-e5e5e5e5e001';
