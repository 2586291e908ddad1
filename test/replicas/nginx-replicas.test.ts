// Two replicas behind Debian's nginx with the deploy/nginx configuration: every request of a workspace must reach
// the replica that created it. Each workflow step reads something only that replica holds (a product id, an
// authorization state, an uploaded file, journal entries), so a request routed to the other one fails.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithNginx, startNginx, type RunningNginx } from '../helpers/nginx.js';

const DEMO_MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const DEMO_CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

interface Made {
  id: string;
  token: string;
  productId: string;
}

describeWithNginx('Replicas behind nginx', () => {
  let r1: RunningSandbox;
  let r2: RunningSandbox;
  let nginx: RunningNginx;
  let runs = 0;

  const at = (path: string, init: RequestInit = {}) => fetch(new URL(path, nginx.url), { redirect: 'manual', ...init });
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    r1 = await startSandbox({ replicaId: 'r1', trustProxy: 'loopback' });
    r2 = await startSandbox({ replicaId: 'r2', trustProxy: 'loopback' });
    // This test creates 22 workspaces from one address and runs 20 workflows from it at once: more than the shipped
    // per-address creation, request and connection limits allow (test/replicas/nginx-edge.test.ts tests those).
    nginx = await startNginx(
      [
        { id: 'r1', address: new URL(r1.url).host },
        { id: 'r2', address: new URL(r2.url).host },
      ],
      { createPerMinute: 100, requestsPerSecond: 10_000, requestBurst: 10_000, connectionsPerAddress: 1_000 },
    );
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([r1?.close(), r2?.close()]);
  });

  async function createWorkspace(): Promise<{ id: string; token: string }> {
    const res = await at('/_sandbox/workspaces', { method: 'POST' });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: string; tokens: { owner: string } } };
    return { id: data.id, token: data.tokens.owner };
  }

  /** One workspace's workflow through nginx: each step fails on a replica that does not hold the workspace. */
  async function workflow(id: string, token: string): Promise<Made> {
    const sku = `SKU-${id}-${++runs}`;
    const created = await at('/2024-09/products', {
      method: 'POST',
      headers: { ...bearer(token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ merchant_id: DEMO_MERCHANT, sku, title: `Product of ${id}` }),
    });
    expect(created.status).toBe(201);
    const productId = ((await created.json()) as { data: { id: string } }).data.id;
    const read = await at(`/2024-09/products/${productId}`, { headers: bearer(token) });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { sku: string } }).data.sku).toBe(sku);

    // An uploaded image, fetched back from the URL it names (no token: `?workspace=` routes it).
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'tiny.png');
    const upload = await at(`/2024-09/products/${productId}/images`, { method: 'POST', headers: bearer(token), body: form });
    expect(upload.status).toBe(201);
    const imageUrl = new URL(((await upload.json()) as { data: { url: string } }).data.url);
    expect(imageUrl.origin).toBe(nginx.url);
    const image = await at(imageUrl.pathname + imageUrl.search);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

    // The consent flow: the page by its state, the form posted to its action, the callback it redirects to.
    const authUrl = await at(`/2024-09/channels/retailer/${DEMO_CHANNEL}/get-auth-url`, { headers: bearer(token) });
    expect(authUrl.status).toBe(200);
    const consent = new URL(((await authUrl.json()) as { url: string }).url);
    const state = consent.searchParams.get('state')!;
    expect(state.startsWith(`ws_${id}.`)).toBe(true);
    const page = await at(consent.pathname + consent.search);
    expect(page.status).toBe(200);
    const action = /<form method="post" action="([^"]+)"/.exec(await page.text())?.[1]?.replaceAll('&amp;', '&');
    expect(action).toBeDefined();
    const decided = await at(action!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state, decision: 'approve' }).toString(),
    });
    expect(decided.status).toBe(302);
    const callback = new URL(decided.headers.get('location')!, nginx.url);
    const connected = await at(callback.pathname + callback.search);
    expect(connected.status).toBe(200);
    expect(await connected.text()).toContain('Channel connected');

    // The control plane by `?workspace=`: its journal holds this workflow's product creation.
    const journal = await at(`/_sandbox/requests?workspace=${id}`, { headers: bearer(token) });
    expect(journal.status).toBe(200);
    expect(await journal.text()).toContain(productId);
    return { id, token, productId };
  }

  it("When 20 workspaces are created through nginx and one replica then stops, then each workflow reached its own replica and only the stopped one's workspaces fail", async () => {
    const made: Made[] = [];
    for (let i = 0; i < 20; i++) {
      const { id, token } = await createWorkspace();
      made.push(await workflow(id, token));
    }
    const on = (replica: string) => made.filter((m) => m.id.startsWith(`${replica}-`)).length;
    expect(on('r1') + on('r2')).toBe(20);
    expect(on('r1')).toBeGreaterThanOrEqual(5);
    expect(on('r2')).toBeGreaterThanOrEqual(5);
    // Each replica holds exactly the workspaces named after it.
    for (const m of made) {
      const [holder, other] = m.id.startsWith('r1-') ? [r1, r2] : [r2, r1];
      expect(holder.worlds.workspace(m.id)).toBeDefined();
      expect(other.worlds.workspace(m.id)).toBeUndefined();
    }

    await r2.close();
    for (const m of made) {
      const res = await at(`/2024-09/products/${m.productId}`, { headers: bearer(m.token) });
      if (m.id.startsWith('r1-')) {
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      } else {
        // nginx's own answer, JSON with a message like the sandbox's, never its HTML error page.
        expect(res.status).toBe(502);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toEqual({ message: expect.stringContaining('cannot be reached') });
      }
    }
    // The survivor still runs whole workflows, and new workspaces land on it.
    const survivor = made.find((m) => m.id.startsWith('r1-'))!;
    await workflow(survivor.id, survivor.token);
    for (let i = 0; i < 2; i++) {
      const { id, token } = await createWorkspace();
      expect(id.startsWith('r1-')).toBe(true);
      await workflow(id, token);
    }
  });
});
