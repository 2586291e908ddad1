// One fixed exchange table for the whole sandbox: forecasts must be reproducible, so rates never move.

/** Units of USD per unit of each currency (mid-2024 levels, rounded). Documented in docs/forecast-model.md. */
export const USD_PER_UNIT: Readonly<Record<string, number>> = Object.freeze({
  USD: 1,
  EUR: 1.1,
  GBP: 1.3,
  CAD: 0.74,
  MXN: 0.052,
  BRL: 0.18,
  SEK: 0.096,
  PLN: 0.26,
  CHF: 1.17,
  TRY: 0.029,
  JPY: 0.0069,
  CNY: 0.14,
  HKD: 0.128,
  TWD: 0.031,
  KRW: 0.00074,
  INR: 0.012,
  SGD: 0.76,
  AED: 0.2723,
  AUD: 0.67,
  VND: 0.00004,
});

/** Currencies whose prices have no minor unit; every other currency is rounded to cents. */
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND']);

/** Thrown for a currency outside the table, so a handler can answer 422 instead of inventing a rate. */
export class UnsupportedCurrencyError extends Error {
  constructor(readonly currency: string) {
    super(`The currency ${currency} is not in the sandbox's exchange table.`);
  }
}

/** Whether the table knows a currency (handlers check before calculating). */
export function isSupportedCurrency(currency: string): boolean {
  return Object.hasOwn(USD_PER_UNIT, currency);
}

/** Units of `to` per unit of `from`, rounded to 6 decimals so the rate shown in forecast inputs is the one applied. */
export function exchangeRate(from: string, to: string): number {
  const f = USD_PER_UNIT[from];
  const t = USD_PER_UNIT[to];
  if (f === undefined) throw new UnsupportedCurrencyError(from);
  if (t === undefined) throw new UnsupportedCurrencyError(to);
  return Math.round((f / t) * 1e6) / 1e6;
}

/** Decimal places of a currency's minor unit. */
export function minorUnitDigits(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 0 : 2;
}

/** Rounds an amount to the currency's minor unit (cents, or whole yen); monotone, so it keeps orderings. */
export function roundMoney(value: number, currency: string): number {
  const factor = 10 ** minorUnitDigits(currency);
  // The epsilon keeps 1.005-style binary fractions from rounding down.
  const rounded = Math.round((value + Math.sign(value) * Number.EPSILON * Math.abs(value)) * factor) / factor;
  return rounded === 0 ? 0 : rounded; // never -0 in JSON-bound values
}

/** A shelf price in the currency's usual style: x.99 for cent currencies, a multiple of 10 for zero-decimal ones. */
export function shelfPrice(value: number, currency: string): number {
  if (minorUnitDigits(currency) === 0) return Math.max(10, Math.round(value / 10) * 10);
  return Math.round((Math.max(0, Math.floor(value)) + 0.99) * 100) / 100;
}
