// Series are daily and keyed by UTC day number, so a point's date never depends on the host's time zone.

export const DAY_MS = 86_400_000;

/** How far back a series reaches: a year is what sellers look at, and it bounds the work per request. */
export const SERIES_MAX_DAYS = 365;

/** The UTC day number (days since 1970-01-01) of an instant. */
export function utcDay(instant: Date | string): number {
  return Math.floor(new Date(instant).getTime() / DAY_MS);
}

/** Midnight UTC of a day number, as an ISO string (the `recorded_at` of a series point). */
export function dayStartIso(day: number): string {
  return new Date(day * DAY_MS).toISOString();
}

/** The inclusive day range of an item's series as of `now`: from its listing (at most a year back) to today. */
export interface SeriesWindow {
  firstDay: number;
  lastDay: number;
}

/** Why a window: every series of an item (prices, ranks) covers the same days, so their lengths agree. */
export function seriesWindow(listedAt: string, now: Date): SeriesWindow {
  const lastDay = utcDay(now);
  const firstDay = Math.max(utcDay(listedAt), lastDay - SERIES_MAX_DAYS + 1);
  return { firstDay, lastDay };
}
