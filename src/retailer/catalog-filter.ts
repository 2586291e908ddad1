import type { CatalogIdentifierType, CatalogItem } from './seller-account-types.js';

/** What both catalog searches (the relayed seller API and the contract's catalog-search) filter by. */
export interface CatalogFilter {
  /** Words that must all occur in the title or brand, case-insensitive. */
  keywords?: string[];
  /** Exact identifier values; an item matches when it carries any of them. */
  identifiers?: string[];
  identifierType?: CatalogIdentifierType | 'ASIN';
}

/** Splits free text (spaces or commas) into lower-case search words. */
export const searchWords = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w.length > 0);

/** The catalog items matching the filter, in catalog order (stable, so pages never shift). */
export function filterCatalog(catalog: readonly CatalogItem[], filter: CatalogFilter): CatalogItem[] {
  const words = filter.keywords?.map((w) => w.toLowerCase()) ?? [];
  const wanted = new Set(filter.identifiers ?? []);
  return catalog.filter((item) => {
    const text = `${item.title} ${item.brand}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) return false;
    if (wanted.size === 0) return true;
    if (filter.identifierType === 'ASIN') return wanted.has(item.asin);
    return item.identifiers.some((id) => (!filter.identifierType || id.type === filter.identifierType) && wanted.has(id.value));
  });
}
