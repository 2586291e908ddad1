import type { RetailerRequest } from './types.js';

type Query = RetailerRequest['query'];

/** A single query value (the first when repeated), trimmed; undefined when absent or empty. */
export function one(query: Query, name: string): string | undefined {
  const raw = query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** A comma-separated (or repeated) list parameter, as the seller API takes MarketplaceIds and friends. */
export function list(query: Query, name: string): string[] {
  const raw = query[name];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** An integer parameter within bounds; NaN when present but not such an integer. */
export function int(query: Query, name: string, min: number, max: number): number | undefined {
  const value = one(query, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : Number.NaN;
}

/** An ISO 8601 date parameter; null when present but unparseable. */
export function date(query: Query, name: string): Date | null | undefined {
  const value = one(query, name);
  if (value === undefined) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
