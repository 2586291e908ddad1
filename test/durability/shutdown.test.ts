import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { api, MERCHANT, startServer, stopServer, tempStore, killStragglers, PROCESS_TEST_TIMEOUT } from './server-process.js';

afterEach(killStragglers);

describe('a real server asked to stop', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('When the server gets %s right after creates, then it flushes, exits 0 and the restart has them', async (signal) => {
    const { file, cleanup } = tempStore();
    try {
      const first = await startServer(file);
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) => api(first.url, 'POST', '/2024-09/products', { merchant_id: MERCHANT, sku: `SIG-${i}`, title: `Signal ${i}` })),
      );
      expect(created.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(await stopServer(first, signal)).toBe(0);
      expect(existsSync(`${file}.lock`)).toBe(false);

      const second = await startServer(file);
      try {
        for (const { body } of created) expect((await api(second.url, 'GET', `/2024-09/products/${body.data.id}`)).body).toEqual(body);
      } finally {
        expect(await stopServer(second, signal)).toBe(0);
      }
    } finally {
      cleanup();
    }
  });
});
