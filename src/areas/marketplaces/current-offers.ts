// Current offers, derived from the item and the clock. Their number is the item's seller_count (what forecasts
// read as the seller count) and the winner's price is today's price-history point.

import type { components } from '../../contract/document/generated.js';
import { offerCount, type CatalogItemRecord, type MarketplaceRecord } from './catalog-records.js';
import { dayStartIso, utcDay } from './calendar.js';
import { minorUnitDigits, roundMoney, exchangeRate } from './currencies.js';
import { hashSeed, unitAt, uuidFrom } from './deterministic-random.js';
import { buyBoxPriceOnDay } from './price-series.js';

/** A current offer as the contract shows it. */
export type OfferView = components['schemas']['CatalogItemOffer'];

// A shared pool of sellers (prime size, so a stride walk visits distinct sellers): the same seller shows up on
// many items, as on a real marketplace.
const SELLER_POOL = 401;
const NAME_FIRST = ['Harbor', 'Summit', 'Maple', 'Cedar', 'Golden', 'Prairie', 'Atlas', 'Beacon', 'Willow', 'Granite', 'Meadow', 'Orchard'];
const NAME_SECOND = ['Lane', 'Point', 'Bridge', 'Valley', 'Crest', 'Field', 'Harbor', 'Grove', 'Mill', 'Brook', 'Ridge', 'Gate'];
const NAME_SUFFIX = ['Goods', 'Trading', 'Direct'];

/** A pool seller's stable identity; names are unique across the pool. */
export function poolSeller(index: number): { id: string; name: string; rating: number; feedbackCount: number } {
  const a = NAME_FIRST[index % 12]!;
  const b = NAME_SECOND[Math.floor(index / 12) % 12]!;
  const c = NAME_SUFFIX[Math.floor(index / 144) % 3]!;
  return {
    id: uuidFrom('seller', index),
    name: `${a} ${b} ${c}`,
    rating: Math.round((3.8 + unitAt('seller-rating', index) * 1.2) * 10) / 10,
    feedbackCount: Math.floor(20 + unitAt('seller-feedback', index) ** 2 * 25_000),
  };
}

/** Shipping a merchant-fulfilled offer charges, in USD before conversion (0 when the seller ships free). */
const MERCHANT_SHIPPING_USD = [0, 0, 3.99, 5.99];

/** The item's offers as of `now`: the buy-box winner first (lowest landed price), then the others by price. */
export function currentOffers(item: CatalogItemRecord, marketplace: MarketplaceRecord, now: Date): OfferView[] {
  const currency = marketplace.native_currency;
  const day = utcDay(now);
  const week = Math.floor(day / 7);
  const seed = item.simulation.seed;
  const buyBox = buyBoxPriceOnDay(item, currency, day);
  const start = hashSeed(seed, 'seller-start') % SELLER_POOL;
  const stride = 1 + (hashSeed(seed, 'seller-stride') % (SELLER_POOL - 1));
  const usdRate = exchangeRate('USD', currency);
  const step = 10 ** -minorUnitDigits(currency);

  const offers: OfferView[] = [];
  for (let i = 0, count = offerCount(item); i < count; i++) {
    const seller = poolSeller((start + i * stride) % SELLER_POOL);
    const winner = i === 0;
    const fulfilledByMarketplace = winner ? unitAt(seed, 'winner-fba') < 0.75 : unitAt(seed, 'fba', i) < 0.55;
    // Others sit 1-20% above the winner (re-drawn weekly with the reprice), never below it, so the winner stays
    // the cheapest landed price and the buy box is believable.
    const markup = 1.01 + unitAt(seed, 'markup', i, week) * 0.19;
    const price = winner ? buyBox : Math.max(buyBox + step, roundMoney(buyBox * markup, currency));
    const shippingUsd = fulfilledByMarketplace || winner ? 0 : MERCHANT_SHIPPING_USD[hashSeed(seed, 'ship', i) % 4]!;
    offers.push({
      id: uuidFrom(seed, 'offer', i),
      marketplace_catalog_item_id: item.id,
      seller_id: seller.id,
      seller_name: seller.name,
      condition: 'new',
      price: { value: roundMoney(price, currency), currency },
      shipping_price: { value: roundMoney(shippingUsd * usdRate, currency), currency },
      fulfillment_channel: fulfilledByMarketplace ? 'marketplace' : 'merchant',
      is_buy_box_winner: winner,
      seller_feedback_rating: seller.rating,
      seller_feedback_count: seller.feedbackCount,
      observed_at: dayStartIso(day),
    });
  }
  const [first, ...rest] = offers;
  rest.sort((x, y) => x.price.value + x.shipping_price.value - (y.price.value + y.shipping_price.value));
  return first ? [first, ...rest] : [];
}
