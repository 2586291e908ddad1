// Marketplace selling fees of the sandbox's model (close to the big marketplaces' published 2024 schedules,
// simplified: one referral percentage per category, one fulfilment fee per size tier, no minimums).

import type { SizeTier } from '../marketplaces/catalog-records.js';
import type { CategoryCode } from '../marketplaces/categories.js';
import { exchangeRate, roundMoney } from '../marketplaces/currencies.js';

/** Referral fee: a percentage of the sale price, by category. */
export const REFERRAL_FEE_PERCENT: Readonly<Record<CategoryCode, number>> = {
  electronics: 8,
  computers: 8,
  home_kitchen: 15,
  household_supplies: 15,
  health_medical: 15,
  grocery_food: 8,
  clothing_apparel: 17,
  toys_games: 15,
  sports_outdoors: 15,
  office_products: 15,
  pet_supplies: 15,
  tools_home_improvement: 15,
  beauty_personal_care: 15,
  books: 15,
};

/** Fulfilment fee per unit in USD, by size tier; converted into the marketplace currency with the exchange table. */
export const FULFILMENT_FEE_USD: Readonly<Record<SizeTier, number>> = {
  small_standard: 3.22,
  large_standard: 5.4,
  oversize: 11.37,
};

/** The per-unit fulfilment fee in a marketplace currency, rounded to its minor unit. */
export function fulfilmentFee(sizeTier: SizeTier, currency: string): number {
  return roundMoney(FULFILMENT_FEE_USD[sizeTier] * exchangeRate('USD', currency), currency);
}
