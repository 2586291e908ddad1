// Scraping in API tests: a supplier whose attempts (hashed from the scraping request's random id) do what a test
// needs, and what an attempt finds, read from the same pure functions the sandbox uses.
import request from 'supertest';
import { expect } from 'vitest';
import { attemptId, attemptTiming } from '../../../src/areas/sourcing/rules/scraping-schedule.js';
import { foundEntry, supplierCatalogue, type FoundEntry } from '../../../src/areas/sourcing/rules/supplier-catalogue.js';
import type { ScrapingRequestRecord } from '../../../src/areas/sourcing/record-types.js';
import type { TestApp } from '../../helpers/app.js';
import { aSupplier } from '../../helpers/builders.js';

/**
 * A new supplier of the demo merchant with an hourly scraping request of `attempts` attempts starting now, whose
 * attempts meet `wanted`: a new supplier is tried until one does.
 */
export async function scrapedSupplier(
  t: TestApp,
  attempts: number,
  wanted: (supplierId: string, scraping: ScrapingRequestRecord) => boolean,
): Promise<{ supplierId: string; scraping: ScrapingRequestRecord }> {
  for (let tries = 0; tries < 20; tries++) {
    const supplierId = (await aSupplier(t, { default_currency: 'USD' })).id;
    const res = await request(t.app)
      .post(`/2024-09/suppliers/${supplierId}/scraping-requests`)
      .set(t.auth('owner'))
      .send({ source_url: 'https://scraped.example.com/prices', frequency: 'hourly', max_attempts: attempts });
    expect(res.status).toBe(201);
    if (wanted(supplierId, res.body.data)) return { supplierId, scraping: res.body.data };
  }
  throw new Error('no supplier whose attempts are as wanted');
}

/** What attempt `n` of the request finds of the SKU, or null when it fails or misses it. */
export function foundBy(supplierId: string, scraping: ScrapingRequestRecord, n: number, sku: string): FoundEntry | null {
  if (attemptTiming(scraping, n).fails) return null;
  const entry = supplierCatalogue(supplierId).find((e) => e.sku === sku);
  return entry ? foundEntry(attemptId(scraping.id, n), entry) : null;
}

/** Whether the request's first attempt succeeds (about 8% fail). */
export const firstSucceeds = (_: string, scraping: ScrapingRequestRecord) => !attemptTiming(scraping, 1).fails;

/** The SKUs of the supplier's catalogue attempt `n` finds. */
export const skusFoundBy = (supplierId: string, scraping: ScrapingRequestRecord, n: number): string[] =>
  supplierCatalogue(supplierId).flatMap((e) => (foundBy(supplierId, scraping, n, e.sku) ? [e.sku] : []));
