// Each journal ring held its last thousand entries as redacted copies of their bodies, objects on the JavaScript
// heap. At a few thousand requests a second every copy outlived two young collections and died in the old
// generation, bringing a full mark-compact every few seconds and holding requests up behind it. An entry is now its
// JSON in its ring's byte buffer, outside the heap, and the journal keeps no memo under a request's own objects.
// The heap is measured after a full collection (v8.queryObjects makes one), so only what is reachable counts.
import { getHeapStatistics, queryObjects } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { RequestJournal } from '../../src/observe/request-journal.js';

class Probe {}

/** The heap in use once everything unreachable is collected. */
function reachableHeap(): number {
  queryObjects(Probe, { format: 'count' });
  return getHeapStatistics().used_heap_size;
}

/** A page of 80 products: about 7 KiB of JSON, fresh objects and strings for each request. */
const page = (request: number) => ({
  data: Array.from({ length: 80 }, (_, i) => ({ id: `p${request}-${i}`, name: `Product ${request}-${i} ${'x'.repeat(50)}` })),
});

describe('the journal outside the heap', () => {
  it('When 1,000 answers of 7 KiB are recorded, then the journal holds them all and the heap grows by less than 1 MiB', () => {
    const journal = new RequestJournal({ maxWorkspaceBytes: 64 * 1024 * 1024 });
    const before = reachableHeap();
    for (let i = 0; i < 1000; i++) {
      journal.record({ method: 'GET', path: `/2024-09/products/${i}`, operationId: 'listProducts', status: 200, durationMs: 1, responseBody: page(i) });
    }
    const grown = reachableHeap() - before;
    expect(journal.size).toBe(1000);
    expect(journal.bytesOf('default')).toBeGreaterThan(7 * 1024 * 1000);
    expect(grown).toBeLessThan(1024 * 1024);
    // Every entry is still there in full.
    expect((journal.list({ path: '/2024-09/products/0' })[0]!.response.body as { data: unknown[] }).data).toHaveLength(80);
  });
});
