// Issue 31, finding 7: twenty 5 MiB uploads fill a workspace (100 MiB, within its quota); each export then
// base64-encoded and stringified everything on the main thread before comparing the size with BUNDLE_MAX_BYTES:
// 413 after 5.3 s, health waiting 4.6 s, and four at once held health for 23.9 s. An export that would be refused
// must be refused from counted sizes before any work, so it answers at once and nobody else waits.
import { afterEach, describe, expect, it } from 'vitest';
import { killStragglers, MERCHANT, PROCESS_TEST_TIMEOUT, startServer, stopServer, tempStore } from '../durability/server-process.js';
import { floodBound, healthBaseline, healthProbe } from './health-probe.js';
import { bigPng, hostedEnv } from './hosted-process.js';

afterEach(() => killStragglers());

const MiB = 2 ** 20;
const UPLOADS = 20;
const IMAGE = bigPng();

interface Created {
  data: { id: string; tokens: { owner: string } };
}

/** A workspace whose uploads hold `UPLOADS` files of 5 MiB, on products of its own merchant. */
async function fullWorkspace(url: string): Promise<{ id: string; owner: string }> {
  const ws = (await (await fetch(`${url}/_sandbox/workspaces`, { method: 'POST' })).json()) as Created;
  const headers = { Authorization: `Bearer ${ws.data.tokens.owner}` };
  const list = (await (await fetch(`${url}/2024-09/products?merchant_id=${MERCHANT}&per_page=5`, { headers })).json()) as { data: { id: string }[] };
  for (let i = 0; i < UPLOADS; i++) {
    const form = new FormData();
    form.append('file', new Blob([IMAGE], { type: 'image/png' }), `full-${i}.png`);
    const res = await fetch(`${url}/2024-09/products/${list.data[i % list.data.length]!.id}/images`, { method: 'POST', headers, body: form });
    await res.arrayBuffer();
    expect(res.status).toBe(201);
  }
  return { id: ws.data.id, owner: ws.data.tokens.owner };
}

describe('exporting a workspace whose bundle would be too large', () => {
  it(
    'When four exports of a workspace holding 100 MiB of uploads are asked at once in hosted mode, then each is refused (413, or 503 while one is in flight) at once and health never waits a second',
    async () => {
      const store = tempStore();
      // The finding's configuration: the upload quota (100 MiB) and the bundle limit (32 MiB) it was found with.
      const server = await startServer(store.file, hostedEnv(1024, { WORKSPACE_MAX_UPLOAD_MB: '100', BUNDLE_MAX_BYTES: String(32 * MiB) }));
      try {
        const ws = await fullWorkspace(server.url);
        const baseline = await healthBaseline(server.url);
        const probe = await healthProbe(server.url);
        const exports = await Promise.all(
          Array.from({ length: 4 }, async () => {
            const started = performance.now();
            const res = await fetch(`${server.url}/_sandbox/workspaces/${ws.id}/export`, { headers: { Authorization: `Bearer ${ws.owner}` } });
            const body = (await res.json()) as { message: string };
            return { status: res.status, message: body.message, ms: performance.now() - started };
          }),
        );
        const waits = await probe.stop();
        console.info(
          `export-refused-first: statuses ${exports.map((e) => e.status).join(',')}; slowest ${Math.round(Math.max(...exports.map((e) => e.ms)))} ms; health max ${waits.max} ms (idle p99 ${baseline.p99} ms)`,
        );

        expect(exports.map((e) => e.status)).toContain(413);
        expect(exports.every((e) => e.status === 413 || e.status === 503)).toBe(true);
        expect(exports.find((e) => e.status === 413)!.message).toMatch(/BUNDLE_MAX_BYTES/);
        // Seconds before; counted sizes answer in milliseconds (a second leaves room for a loaded machine).
        expect(Math.max(...exports.map((e) => e.ms))).toBeLessThan(floodBound(baseline));
        expect(waits.max).toBeLessThan(floodBound(baseline));
        expect(await stopServer(server)).toBe(0);
      } finally {
        store.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );
});
