// Issue 25's figure: a workspace with 10,000 records exports, and loads from its bundle, each within a second. On
// the built server (in memory), over HTTP: the load is POST /_sandbox/workspaces with a bundle of 10,000 added
// products (serialized before the clock starts: the client's encoding is not the sandbox's work), the export is
// GET /_sandbox/workspaces/{id}/export of the workspace that load made, timed to the last byte read.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { MERCHANT, startSandbox, type Running } from './servers.js';

type Note = (key: string, label: string, unit: string, value: number) => void;
type Bundle = { changes: Record<string, { added: Record<string, unknown>[]; changed: unknown[]; deleted: string[] }> };

export const BUNDLE_TARGET_MS = 1000;

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started };
}

/** A bundle whose world adds `records` products of the demo merchant, made from a real export of one. */
async function bundleOf(server: Running, records: number): Promise<string> {
  const ws = JSON.parse((await call(`${server.url}/_sandbox/workspaces`, { method: 'POST' })).text).data as { id: string; tokens: { owner: string } };
  const auth = { Authorization: `Bearer ${ws.tokens.owner}`, 'Content-Type': 'application/json' };
  const made = await call(`${server.url}/2024-09/products`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ merchant_id: MERCHANT, sku: 'BENCH-TEMPLATE', title: 'Bench product' }),
  });
  if (made.status !== 201) throw new Error(`creating the template product answered ${made.status}: ${made.text}`);
  const bundle = JSON.parse((await call(`${server.url}/_sandbox/workspaces/${ws.id}/export`, { headers: auth })).text) as Bundle;
  const template = bundle.changes.products!.added[0]!;
  bundle.changes.products!.added = Array.from({ length: records }, (_, i) => ({
    ...template,
    id: randomUUID(),
    sku: `BENCH-${i}`,
    title: `Bench product ${i}`,
  }));
  await call(`${server.url}/_sandbox/workspaces/${ws.id}`, { method: 'DELETE', headers: auth });
  return JSON.stringify(bundle);
}

/** `rounds` loads and exports of a workspace of `records` records, each noted (ms) with the bundle's size (MiB). */
export async function benchBundles(opts: { rounds: number; records: number; dir: string; log: (line: string) => void; note: Note }): Promise<void> {
  const { rounds, records, dir, log, note } = opts;
  const server = await startSandbox(join(dir, 'bundle-bench.json'), { STORE: 'memory' });
  try {
    const body = await bundleOf(server, records);
    log(`workspace bundles: ${records.toLocaleString('en-US')} records, ${(Buffer.byteLength(body) / 2 ** 20).toFixed(1)} MiB of JSON`);
    for (let round = 1; round <= rounds; round++) {
      const loaded = await call(`${server.url}/_sandbox/workspaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      if (loaded.status !== 201) throw new Error(`the load answered ${loaded.status}: ${loaded.text.slice(0, 300)}`);
      const ws = JSON.parse(loaded.text).data as { id: string; tokens: { owner: string } };
      const auth = { Authorization: `Bearer ${ws.tokens.owner}` };
      const exported = await call(`${server.url}/_sandbox/workspaces/${ws.id}/export`, { headers: auth });
      if (exported.status !== 200) throw new Error(`the export answered ${exported.status}: ${exported.text.slice(0, 300)}`);
      const count = (JSON.parse(exported.text) as Bundle).changes.products?.added.length;
      if (count !== records) throw new Error(`the export carries ${count} products, not ${records}`);
      note('bundle.load.ms', `load of a ${records.toLocaleString('en-US')}-record bundle (POST /_sandbox/workspaces)`, 'ms', loaded.ms);
      note('bundle.export.ms', `export of a ${records.toLocaleString('en-US')}-record workspace (GET .../export)`, 'ms', exported.ms);
      note('bundle.mib', 'bundle size', 'MiB', Buffer.byteLength(exported.text) / 2 ** 20);
      log(`  round ${round}: load ${loaded.ms.toFixed(1)} ms, export ${exported.ms.toFixed(1)} ms`);
      await call(`${server.url}/_sandbox/workspaces/${ws.id}`, { method: 'DELETE', headers: auth });
    }
  } finally {
    await server.stop();
  }
}

/** The targets of the section, judged on the medians. */
export function bundleChecks(med: (key: string) => number, records: number) {
  return [
    {
      target: `load of a ${records.toLocaleString('en-US')}-record bundle <= ${BUNDLE_TARGET_MS} ms`,
      measured: `${med('bundle.load.ms').toFixed(1)} ms`,
      ok: med('bundle.load.ms') <= BUNDLE_TARGET_MS,
    },
    {
      target: `export of a ${records.toLocaleString('en-US')}-record workspace <= ${BUNDLE_TARGET_MS} ms`,
      measured: `${med('bundle.export.ms').toFixed(1)} ms`,
      ok: med('bundle.export.ms') <= BUNDLE_TARGET_MS,
    },
  ];
}
