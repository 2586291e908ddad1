// A 1 KB gzip body that inflates to 1 MiB was parsed and kept raw in one journal ring shared by every tenant:
// 22 such requests exhausted the heap. Now each workspace has its own bounded ring and every kept body is redacted
// and cut to the cap, so what the journal holds stays bounded however many such requests arrive.
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { testApp } from '../helpers/app.js';
import { killStragglers, PROCESS_TEST_TIMEOUT, startServer, stopServer, tempStore } from '../durability/server-process.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const KiB = 1024;

/** A JSON body that inflates to just under 1 MiB (the body limit) from about 1 KB of gzip. */
function inflatingBody(): Buffer {
  const json = JSON.stringify({ merchant_id: MERCHANT, name: 'x'.repeat(1024 * 1024 - 200) });
  return gzipSync(json, { level: 9 });
}

async function floodApp(overrides: Partial<Config> = {}) {
  const t = await testApp(overrides);
  const url = `http://127.0.0.1:${(t.app.address() as AddressInfo).port}`;
  const workspace = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };
  return { ...t, url, workspace };
}

async function postGzip(url: string, body: Buffer, token?: string): Promise<number> {
  const res = await fetch(`${url}/2024-09/products`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: new Uint8Array(body),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('a flood of gzip bodies that inflate to 1 MiB', () => {
  it('When 1 KB gzip bodies inflating to 1 MiB arrive, then the journal keeps each cut to the cap, marked, and each ring within its bytes', async () => {
    const t = await floodApp({ journalWorkspaceBytes: 512 * KiB });
    const body = inflatingBody();
    expect(body.length).toBeLessThan(4 * KiB);
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) {
      statuses.add(await postGzip(t.url, body));
      statuses.add(await postGzip(t.url, body, t.workspace.tokens.owner));
    }
    // The body was read whole (under the limit) and answered as an operation answers, never 413 or 5xx.
    expect([...statuses].every((s) => s < 500 && s !== 413)).toBe(true);
    const journal = t.runtime.observations.journal;
    const usage = journal.usage();
    for (const ring of usage.workspaces.values()) expect(ring.bytes).toBeLessThanOrEqual(512 * KiB);
    // 120 bodies of 1 MiB were sent; the journal holds less than a single one of them.
    expect(usage.bytes).toBeLessThan(1024 * KiB);
    const kept = journal.list({ workspace: t.workspace.id, method: 'POST' });
    expect(kept.length).toBeGreaterThan(10);
    for (const entry of kept) {
      expect(JSON.stringify(entry.request.body).length).toBeLessThanOrEqual(16 * KiB + 64);
      expect(entry.request.body_truncated).toBe(true);
    }
    // Nothing of the unauthenticated requests is kept beyond the cap either, whichever ring they are filed in.
    for (const entry of journal.list({ method: 'POST' })) expect(JSON.stringify(entry.request.body ?? null).length).toBeLessThanOrEqual(16 * KiB + 64);
  });
});

describe('the same flood against a process with a small heap', () => {
  afterEach(() => killStragglers());

  it(
    'When 120 gzip bodies inflating to 1 MiB reach a 64 MiB heap, with and without a token, then it keeps serving and its journal holds each body cut to the cap',
    async () => {
      const store = tempStore();
      const server = await startServer(store.file, { STORE: 'memory', NODE_OPTIONS: '--max-old-space-size=64' });
      try {
        const created = await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST' });
        const workspace = ((await created.json()) as { data: { id: string; tokens: { owner: string } } }).data;
        const body = inflatingBody();
        // Three of these used to exhaust this heap: a 16 KiB cut of a body string held the whole 1 MiB string.
        for (let i = 0; i < 60; i++) {
          expect(await postGzip(server.url, body)).toBeLessThan(500);
          expect(await postGzip(server.url, body, workspace.tokens.owner)).toBeLessThan(500);
        }
        expect(server.child.exitCode).toBeNull();
        expect((await fetch(`${server.url}/_sandbox/health`)).status).toBe(200);
        const read = await fetch(`${server.url}/_sandbox/requests?workspace=${workspace.id}&method=POST&limit=1000`, {
          headers: { Authorization: `Bearer ${workspace.tokens.owner}` },
        });
        const entries = ((await read.json()) as { data: { request: { body: unknown; body_truncated: boolean } }[] }).data;
        expect(entries).toHaveLength(60);
        for (const entry of entries) {
          expect(entry.request.body_truncated).toBe(true);
          expect(JSON.stringify(entry.request.body).length).toBeLessThanOrEqual(16 * KiB + 64);
        }
        expect(await stopServer(server)).toBe(0);
      } finally {
        store.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );
});

describe('one ring per workspace', () => {
  it("When another workspace sends 1,000 GETs, then this workspace's journal entries are all still there", async () => {
    const t = await floodApp();
    const other = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };
    const mine = { Authorization: `Bearer ${t.workspace.tokens.owner}` };
    for (let i = 0; i < 3; i++) await request(t.app).get(`/2024-09/merchants/${MERCHANT}`).set(mine).expect(200);
    const flood = { Authorization: `Bearer ${other.tokens.owner}` };
    for (let i = 0; i < 1000; i++) await request(t.app).get(`/2024-09/merchants?page=${i}`).set(flood);
    const read = await request(t.app).get('/_sandbox/requests').query({ workspace: t.workspace.id, operation_id: 'getMerchant' }).set(mine).expect(200);
    expect(read.body.data).toHaveLength(3);
    expect(t.runtime.observations.journal.usage().workspaces.get(other.id)!.entries).toBe(1000);
  });

  it('When a workspace is deleted, then its ring and what it held are freed', async () => {
    const t = await floodApp();
    await request(t.app)
      .get('/2024-09/merchants')
      .set({ Authorization: `Bearer ${t.workspace.tokens.owner}` })
      .expect(200);
    expect(t.runtime.observations.journal.usage().workspaces.has(t.workspace.id)).toBe(true);
    t.worlds.deleteWorkspace(t.workspace.id);
    expect(t.runtime.observations.journal.usage().workspaces.has(t.workspace.id)).toBe(false);
  });
});
