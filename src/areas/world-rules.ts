// The rules that hold across a world's records, per merchant or per workspace (scraping requests per merchant,
// pending imports, a channel's call log, where uploaded files live, a record's references within its merchant,
// what a handler refuses twice). Each lives beside the handler that keeps it
// for requests and is written once; a loaded workspace bundle's world is held to all of them before it is served.
import { callLogBreaches } from './channels/call-log.js';
import type { Collections } from './collections.js';
import { forecastRuleBreaches } from './forecasting/forecast-breaches.js';
import { importRuleBreaches } from './marketplaces/import-limits.js';
import { imageKeyBreaches } from './products/image-keys.js';
import { productRuleBreaches } from './products/product-breaches.js';
import { scrapingRuleBreaches } from './sourcing/scraping-limits.js';
import { supplierItemRuleBreaches } from './sourcing/supplier-item-breaches.js';
import { userRuleBreaches } from './users/user-breaches.js';

/** One rule a world breaks: the collection (and record, when one) it is about, and why. */
export interface WorldRuleBreach {
  collection: string;
  id?: string;
  field: string;
  message: string;
}

/** Every rule the world's records break (none for a world the API built). */
export function worldRuleBreaches(store: Collections): WorldRuleBreach[] {
  return [
    ...scrapingRuleBreaches(store),
    ...importRuleBreaches(store),
    ...callLogBreaches(store),
    ...imageKeyBreaches(store),
    ...productRuleBreaches(store),
    ...supplierItemRuleBreaches(store),
    ...userRuleBreaches(store),
    ...forecastRuleBreaches(store),
  ];
}
