// Imports are processed lazily: the first request that reads the catalog or the imports after an import's
// completes_at writes its outcome and creates its new items. Everything is dated from the import's own schedule,
// never from when the request happened to arrive, so the result is the same whenever (and however often) it is read.

import type { Collections } from '../collections.js';
import type { Faker } from '@faker-js/faker';
import { newFaker } from '../../store/new-faker.js';
import { hashString, reseedAreaFaker } from '../../store/seed-context.js';
import type { CatalogIdentifier, CatalogItemImportRecord, CatalogItemRecord, MarketplaceRecord } from './catalog-records.js';
import { generateListing, generateProductTemplate, templateOf } from './catalog-generator.js';
import { planImport } from './catalog-import-rules.js';
import { identifierKey } from './records.js';

/**
 * Processes every import completed as of `now`, oldest completion first; a processed import is never touched again.
 * How many there can be is capped at creation (import-limits.ts), which bounds the work of the read that runs this.
 */
export function processDueImports(store: Collections, now: Date): void {
  const due = store.catalog_item_imports
    .where('processed', false)
    .filter((record) => Date.parse(record.completes_at) <= now.getTime())
    .sort((a, b) => a.completes_at.localeCompare(b.completes_at) || a.id.localeCompare(b.id));
  if (due.length === 0) return;
  const faker = newFaker();
  for (const record of due) processImport(store, record, faker);
}

function processImport(store: Collections, record: CatalogItemImportRecord, faker: Faker): void {
  const marketplace = store.marketplaces.get(record.marketplace_id);
  if (!marketplace) throw new Error(`import ${record.id} points at a missing marketplace`);
  const completedAt = new Date(record.completes_at);
  const found: string[] = [];
  const notFound: CatalogIdentifier[] = [];
  for (const outcome of planImport(record.identifiers, (identifier) => itemOf(store, marketplace.id, identifier))) {
    if (outcome.outcome === 'not_found') notFound.push(outcome.identifier);
    else if (outcome.outcome === 'existing') found.push(outcome.itemId);
    else found.push(store.catalog_items.insert(newListing(store, faker, marketplace, outcome.identifier, completedAt)).id);
  }
  store.catalog_item_imports.update(record.id, {
    processed: true,
    found_marketplace_catalog_item_ids: [...new Set(found)],
    not_found_identifiers: notFound,
    updated_at: record.completes_at,
  });
}

/** The marketplace's item carrying the identifier, whether or not it is visible yet (so no item is created twice). */
function itemOf(store: Collections, marketplaceId: string, identifier: CatalogIdentifier): CatalogItemRecord | undefined {
  return store.catalog_items.byKey('identifier', identifierKey(identifier)).find((item) => item.marketplace_id === marketplaceId);
}

/**
 * A new listing for an identifier no item of the marketplace carries: the same product as on another marketplace
 * when one has it, else a new product. Seeded from (marketplace, identifier), so it never depends on request order.
 */
function newListing(store: Collections, reused: Faker, marketplace: MarketplaceRecord, identifier: CatalogIdentifier, availableAt: Date): CatalogItemRecord {
  const faker = reseedAreaFaker(reused, hashString(`${marketplace.id}|${identifierKey(identifier)}`), 'catalog-import');
  const elsewhere = store.catalog_items.byKey('identifier', identifierKey(identifier))[0];
  const elsewhereMarketplace = elsewhere && store.marketplaces.get(elsewhere.marketplace_id);
  const template = elsewhere && elsewhereMarketplace ? templateOf(elsewhere, elsewhereMarketplace) : generateProductTemplate(faker, identifier);
  return generateListing(faker, template, { marketplace, availableAt });
}
