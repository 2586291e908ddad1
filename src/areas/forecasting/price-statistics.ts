// Price volatility as the coefficient of variation: scale-free, so a 10 EUR and a 1,000 JPY item compare.

/** How many recent days of price history volatility is measured over. */
export const VOLATILITY_LOOKBACK_DAYS = 90;

/** Population standard deviation / mean of the values (0 for fewer than two values or a zero mean). */
export function coefficientOfVariation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  if (mean === 0) return 0;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
  return Math.sqrt(variance) / mean;
}

/** Volatility of the most recent VOLATILITY_LOOKBACK_DAYS prices, rounded to 4 decimals as forecast inputs show it. */
export function recentVolatility(prices: readonly number[]): number {
  return Math.round(coefficientOfVariation(prices.slice(-VOLATILITY_LOOKBACK_DAYS)) * 1e4) / 1e4;
}
