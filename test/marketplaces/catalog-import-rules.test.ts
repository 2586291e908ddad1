import { describe, expect, it } from 'vitest';
import { importSchedule, importStatus, planImport, presentCatalogItemImport } from '../../src/areas/marketplaces/catalog-import-rules.js';
import type { CatalogItemImportRecord } from '../../src/areas/marketplaces/catalog-records.js';
import { contractValidator } from '../helpers/contract-schemas.js';

const v = contractValidator();
const created = new Date('2024-09-02T10:00:00.000Z');
const at = (seconds: number) => new Date(created.getTime() + seconds * 1000);

function record(): CatalogItemImportRecord {
  return {
    id: '2f3e4d5c-6b7a-4890-8a1b-2c3d4e5f6a7b',
    merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
    marketplace_id: 'eeeeeeee-0000-4000-8000-000000000001',
    identifiers: [
      { type: 'EAN', value: '4006381333931' },
      { type: 'UPC', value: '012345678901' },
    ],
    ...importSchedule(created, 2),
    found_marketplace_catalog_item_ids: ['5b0e3c1a-7f2d-4e8b-9a61-0c3d2e1f4a5b'],
    not_found_identifiers: [{ type: 'UPC', value: '012345678901' }],
    processed: true,
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
  };
}

describe('catalog item imports', () => {
  it('When the clock passes 5 s and then 1 s per identifier, then the status goes queued, processing, completed', () => {
    const r = record();
    expect(importStatus(r, at(0))).toBe('queued');
    expect(importStatus(r, at(4.999))).toBe('queued');
    expect(importStatus(r, at(5))).toBe('processing');
    expect(importStatus(r, at(6.999))).toBe('processing');
    expect(importStatus(r, at(7))).toBe('completed');
  });

  it('When presented before completion, then counts are null and outcomes empty; after, they are filled; both validate', () => {
    const queued = presentCatalogItemImport(record(), at(1));
    expect(queued).toMatchObject({ status: 'queued', found_count: null, not_found_count: null, started_at: null, completed_at: null });
    expect(queued.found_marketplace_catalog_item_ids).toEqual([]);
    const processing = presentCatalogItemImport(record(), at(6));
    expect(processing.started_at).toBe(at(5).toISOString());
    const done = presentCatalogItemImport(record(), at(60));
    expect(done).toMatchObject({ status: 'completed', requested_count: 2, found_count: 1, not_found_count: 1, completed_at: at(7).toISOString() });
    for (const view of [queued, processing, done]) expect(v.checkSchema('CatalogItemImport', view)).toBeNull();
  });

  it('When identifiers are planned, then invalid codes are not found, known ones resolve, valid unknown ones are new, duplicates once', () => {
    const plan = planImport(
      [
        { type: 'EAN', value: '4006381333931' },
        { type: 'EAN', value: '4006381333931' },
        { type: 'UPC', value: '036000291452' },
        { type: 'UPC', value: '012345678901' },
      ],
      (i) => (i.value === '4006381333931' ? { id: 'known' } : undefined),
    );
    expect(plan.map((p) => p.outcome)).toEqual(['existing', 'new', 'not_found']);
    expect(plan[0]).toMatchObject({ itemId: 'known' });
  });
});
