// The rules a merchant's scraping requests keep, however they got into the store: the createScrapingRequest handler
// asks before it adds one, a loaded workspace bundle's world is held to them before it is served.
import type { Collections } from '../collections.js';
import type { WorldRuleBreach } from '../world-rules.js';

/**
 * Scraping requests a merchant may have, over all its suppliers. With at most 100 attempts each, it bounds what one
 * read has to catch up with (catch-up.ts) and what a list of attempts or requests computes, whatever the clock did.
 */
export const MAX_SCRAPING_REQUESTS_PER_MERCHANT = 20;

/** Why a merchant holding `held` scraping requests may not hold `adding` more; undefined when it may. */
export function scrapingRequestsOverLimit(held: number, adding: number): string | undefined {
  if (held + adding <= MAX_SCRAPING_REQUESTS_PER_MERCHANT) return undefined;
  const most = held > MAX_SCRAPING_REQUESTS_PER_MERCHANT ? `more than the ${MAX_SCRAPING_REQUESTS_PER_MERCHANT}` : 'the most';
  return `The merchant already has ${held} scraping requests, ${most} a merchant may have; delete a supplier to remove its requests.`;
}

/**
 * The scraping rules the world breaks: a merchant past the limit, a request that applied more attempts than it has,
 * a request of another merchant than its supplier's (createScrapingRequest gives it its supplier's).
 */
export function scrapingRuleBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  const perMerchant = new Map<string, number>();
  for (const request of store.scraping_requests.all()) {
    perMerchant.set(request.merchant_id, (perMerchant.get(request.merchant_id) ?? 0) + 1);
    const supplierMerchant = store.suppliers.get(request.supplier_id)?.merchant_id;
    if (supplierMerchant !== undefined && supplierMerchant !== request.merchant_id) {
      breaches.push({
        collection: 'scraping_requests',
        id: request.id,
        field: 'merchant_id',
        message: `Scraping request ${request.id} is of merchant ${request.merchant_id}, but its supplier ${request.supplier_id} is of merchant ${supplierMerchant}.`,
      });
    }
    if (request.applied_attempts > request.max_attempts) {
      breaches.push({
        collection: 'scraping_requests',
        id: request.id,
        field: 'applied_attempts',
        message: `Scraping request ${request.id} has applied ${request.applied_attempts} attempts of its ${request.max_attempts}.`,
      });
    }
  }
  for (const [merchant, held] of perMerchant) {
    const over = scrapingRequestsOverLimit(held, 0);
    if (over) breaches.push({ collection: 'scraping_requests', field: 'merchant_id', message: `Merchant ${merchant}: ${over}` });
  }
  return breaches;
}
