import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { api, MERCHANT, spawnServer, startServer, stopServer, tempStore, killStragglers, PROCESS_TEST_TIMEOUT } from './server-process.js';

afterEach(killStragglers);

describe('a damaged data file, and reseeding on purpose', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('When the data file cannot be parsed, then start-up stops naming the file and how to reset, and the file is left as it was', async () => {
    const { file, cleanup } = tempStore();
    try {
      const damaged = '{"format":1,"seed":20240901,"collections":{"users":[{"id":';
      writeFileSync(file, damaged);
      const server = spawnServer(file);
      expect(await server.exited).toBe(1);
      expect(server.stderr()).toContain(file);
      expect(server.stderr()).toMatch(/--reset|RESET=1/);
      expect(server.stderr()).not.toMatch(/\n\s+at /);
      expect(readFileSync(file, 'utf8')).toBe(damaged);

      // RESET=1 is the way out: it reseeds on purpose.
      const reset = await startServer(file, { RESET: '1' });
      try {
        expect((await api(reset.url, 'GET', `/2024-09/merchants/${MERCHANT}`)).body.data.name).toBe('Demo Outfitters');
      } finally {
        expect(await stopServer(reset)).toBe(0);
      }
      expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe(1);
    } finally {
      cleanup();
    }
  });

  it('When the server starts with RESET=1 on a file with changes, then they are gone and the seeded world is back', async () => {
    const { file, cleanup } = tempStore();
    try {
      const first = await startServer(file);
      const created = await api(first.url, 'POST', '/2024-09/products', { merchant_id: MERCHANT, sku: 'RESET-1', title: 'Goes away' });
      expect(created.status).toBe(201);
      expect(await stopServer(first)).toBe(0);

      const kept = await startServer(file);
      expect((await api(kept.url, 'GET', `/2024-09/products/${created.body.data.id}`)).status).toBe(200);
      expect(await stopServer(kept)).toBe(0);

      const reset = await startServer(file, { RESET: '1' });
      try {
        expect((await api(reset.url, 'GET', `/2024-09/products/${created.body.data.id}`)).status).toBe(404);
      } finally {
        expect(await stopServer(reset)).toBe(0);
      }
    } finally {
      cleanup();
    }
  });
});
