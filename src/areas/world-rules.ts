// The rules that hold across a world's records, per merchant or per workspace (scraping requests per merchant,
// pending imports, a channel's call log and its changes at the retailer, where uploaded files live, a record's references within its merchant,
// what a handler refuses twice). Each lives beside the handler that keeps it
// for requests and is written once; a loaded workspace bundle's world is held to all of them before it is served.
import { callLogBreaches } from './channels/call-log.js';
import { openAuthorizationBreaches } from './channels/open-authorizations.js';
import { retailerStateBreaches } from './channels/retailer-state-breaches.js';
import type { Collections } from './collections.js';
import { forecastRuleBreaches } from './forecasting/forecast-breaches.js';
import { importRuleBreaches } from './marketplaces/import-limits.js';
import { imageKeyBreaches } from './products/image-keys.js';
import { productRuleBreaches } from './products/product-breaches.js';
import { scrapingRuleBreaches } from './sourcing/scraping-limits.js';
import { costTierIdBreaches, supplierItemIdentifierBreaches, supplierItemRefBreaches, supplierSkuBreaches } from './sourcing/supplier-item-breaches.js';
import { userRuleBreaches } from './users/user-breaches.js';

/** One rule a world breaks: the collection (and record, when one) it is about, and why. */
export interface WorldRuleBreach {
  collection: string;
  id?: string;
  field: string;
  message: string;
}

/**
 * The rules, each a pass over the records it is about: a loaded world is held to every one, a pause between two (a
 * world of 20,000 records is checked in several turns of the event loop, not one).
 */
export const WORLD_RULES: readonly ((store: Collections) => WorldRuleBreach[])[] = [
  scrapingRuleBreaches,
  importRuleBreaches,
  callLogBreaches,
  retailerStateBreaches,
  openAuthorizationBreaches,
  imageKeyBreaches,
  productRuleBreaches,
  supplierItemRefBreaches,
  supplierSkuBreaches,
  costTierIdBreaches,
  supplierItemIdentifierBreaches,
  userRuleBreaches,
  forecastRuleBreaches,
];
