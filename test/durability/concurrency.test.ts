import { afterEach, describe, expect, it } from 'vitest';
import { api, listAll, MERCHANT, startServer, stopServer, tempStore, killStragglers, PROCESS_TEST_TIMEOUT } from './server-process.js';

afterEach(killStragglers);

describe('concurrent writes on a real server and file', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('When 100 creates arrive at once, then there are 100 new records with distinct ids, before and after a restart', async () => {
    const { file, cleanup } = tempStore();
    try {
      const first = await startServer(file);
      const before = await listAll(first.url, `/2024-09/products?merchant_id=${MERCHANT}`);
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          api(first.url, 'POST', '/2024-09/products', { merchant_id: MERCHANT, sku: `CONC-${i}`, title: `Concurrent ${i}` }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(100).fill(201));
      const ids = answers.map((a) => a.body.data.id as string);
      expect(new Set(ids).size).toBe(100);
      const after = await listAll(first.url, `/2024-09/products?merchant_id=${MERCHANT}`);
      expect(after.length).toBe(before.length + 100);
      expect(new Set(after.map((p) => p.id)).size).toBe(after.length);
      expect(await stopServer(first)).toBe(0);

      const second = await startServer(file);
      try {
        const reloaded = await listAll(second.url, `/2024-09/products?merchant_id=${MERCHANT}`);
        expect(reloaded).toEqual(after);
      } finally {
        expect(await stopServer(second)).toBe(0);
      }
    } finally {
      cleanup();
    }
  });

  it('When many PUTs of one record race, then the record is one whole PUT (the last applied), the same in memory and after a restart', async () => {
    const { file, cleanup } = tempStore();
    try {
      const first = await startServer(file);
      const { body } = await api(first.url, 'POST', '/2024-09/products', { merchant_id: MERCHANT, sku: 'RACE-0', title: 'Race 0' });
      const id = body.data.id as string;
      const puts = await Promise.all(
        Array.from({ length: 50 }, (_, i) => api(first.url, 'PUT', `/2024-09/products/${id}`, { sku: `RACE-${i + 1}`, title: `Race ${i + 1}` })),
      );
      expect(puts.map((p) => p.status)).toEqual(Array(50).fill(204));
      const final = (await api(first.url, 'GET', `/2024-09/products/${id}`)).body.data;
      // Never a mix of two writes: sku and title come from the same PUT.
      expect(final.sku.replace('RACE-', '')).toBe(final.title.replace('Race ', ''));
      expect(final.sku).not.toBe('RACE-0');
      // A PUT answered after the race settles it: last write wins.
      expect((await api(first.url, 'PUT', `/2024-09/products/${id}`, { sku: 'RACE-LAST', title: 'Race last' })).status).toBe(204);
      const settled = (await api(first.url, 'GET', `/2024-09/products/${id}`)).body.data;
      expect(settled).toMatchObject({ sku: 'RACE-LAST', title: 'Race last' });
      expect(await stopServer(first)).toBe(0);

      const second = await startServer(file);
      try {
        expect((await api(second.url, 'GET', `/2024-09/products/${id}`)).body.data).toEqual(settled);
      } finally {
        expect(await stopServer(second)).toBe(0);
      }
    } finally {
      cleanup();
    }
  });
});
