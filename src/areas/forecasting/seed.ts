import type { Faker } from '@faker-js/faker';
import type { AreaSeedContext } from '../collections.js';
import type { CatalogItemRecord } from '../marketplaces/catalog-records.js';
import { isAvailable } from '../marketplaces/catalog-item-view.js';
import { exchangeRate, isSupportedCurrency } from '../marketplaces/currencies.js';
import { currentBuyBoxPrice } from '../marketplaces/price-series.js';
import { DEMO_SUPPLIER_ITEM_COST_ID } from '../sourcing/fixture-ids.js';
import type { CostTierRecord, SupplierItemRecord } from '../sourcing/records.js';
import { buildForecast, type ForecastSubject } from './calculate.js';

const DEMO_MERCHANT_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const RIVAL_MERCHANT_ID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

/** Forecasts seeded for the demo merchant (and a few for the rival, so a non-member has something to be denied). */
export const SEED_DEMO_FORECASTS = 24;
export const SEED_RIVAL_FORECASTS = 3;

/**
 * Cost as a share of the catalog item's price, cycled through so the seeded forecasts span the list filters:
 * margins from about 60% down to losses, risk-adjusted profits from below zero to thousands.
 */
const COST_TO_PRICE = [0.12, 0.2, 0.3, 0.4, 0.5, 0.62, 0.8, 1.05];

interface Tier {
  supplierItem: SupplierItemRecord;
  tier: CostTierRecord;
}

/**
 * Forecasts calculated by the same code as POST .../calculate, each as of its own fixed `calculated_at` (before
 * refDate), so the seed is deterministic and every forecast's inputs match the series as they were that day.
 * Supplier items and catalog items are generated independently, so each cost tier is paired with the catalog item
 * whose price puts the cost at the intended share of it.
 */
export function seedForecasting(s: AreaSeedContext): void {
  seedMerchantForecasts(s, DEMO_MERCHANT_ID, SEED_DEMO_FORECASTS);
  seedMerchantForecasts(s, RIVAL_MERCHANT_ID, SEED_RIVAL_FORECASTS);
}

function seedMerchantForecasts(s: AreaSeedContext, merchantId: string, count: number): void {
  const tiers: Tier[] = s.store.supplier_items
    .where('merchant_id', merchantId)
    .flatMap((supplierItem) => supplierItem.costs.map((tier) => ({ supplierItem, tier })))
    .filter(({ tier }) => isSupportedCurrency(tier.cost.currency));
  if (tiers.length === 0) return;
  const pinned = tiers.find(({ tier }) => tier.id === DEMO_SUPPLIER_ITEM_COST_ID);
  const latest = s.refDate.getTime() - 3_600_000;
  const times = Array.from({ length: count }, () => s.faker.number.int({ min: latest - 14 * 86_400_000, max: latest })).sort((a, b) => a - b);

  let previous: ForecastSubject | undefined;
  times.forEach((time, i) => {
    const now = new Date(time);
    let subject: ForecastSubject;
    if (previous && i % 6 === 3) {
      // Another tier of the same supplier item on the same catalog item: what comparing order quantities looks like.
      const other = previous.supplierItem.costs.find((t) => t.id !== previous!.tier.id) ?? previous.tier;
      subject = { ...previous, tier: other };
    } else {
      // The same tier again on another item (a different price point): what shopping one tier around looks like.
      const { supplierItem, tier } = i === 0 && pinned ? pinned : previous && i % 6 === 5 ? previous : s.faker.helpers.arrayElement(tiers);
      const item = closestItem(s, now, tier, COST_TO_PRICE[i % COST_TO_PRICE.length]!, s.faker);
      const marketplace = s.store.marketplaces.get(item.marketplace_id)!;
      subject = { item, marketplace, supplierItem, tier };
    }
    s.store.opportunity_forecasts.insert(buildForecast(s.faker.string.uuid(), subject, now));
    previous = subject;
  });
}

/** The available catalog item whose buy-box price is closest (in ratio) to cost / share, among a random third. */
function closestItem(s: AreaSeedContext, now: Date, tier: CostTierRecord, share: number, faker: Faker): CatalogItemRecord {
  const costUsd = tier.cost.value * exchangeRate(tier.cost.currency, 'USD');
  const wanted = costUsd / share;
  const available = s.store.catalog_items.all().filter((item) => isAvailable(item, now));
  const candidates = faker.helpers.arrayElements(available, Math.max(1, Math.ceil(available.length / 3)));
  let best = candidates[0]!;
  let bestDistance = Infinity;
  for (const item of candidates) {
    const currency = s.store.marketplaces.get(item.marketplace_id)!.native_currency;
    const priceUsd = currentBuyBoxPrice(item, currency, now) * exchangeRate(currency, 'USD');
    const distance = Math.abs(Math.log(priceUsd / wanted));
    if (distance < bestDistance) [best, bestDistance] = [item, distance];
  }
  return best;
}
