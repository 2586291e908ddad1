// A workspace's record quota bounds how many records it adds, not their bytes: 20,000 supplier items with a
// 65,535-character description are gigabytes, and every live workspace may keep writing while creations are refused
// for memory. So each request that takes a JSON body reserves what reading it holds, as an upload does: past
// HEAP_BUDGET_PERCENT it answers 503 with Retry-After and stores nothing, while reads, deletions and resets (which
// free memory) go on.
import request from 'supertest';
import { DEFAULT_HEAP_BUDGET_PERCENT } from '../../src/config.js';
import { describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { memoryReading } from '../helpers/memory-reading.js';
import { bearer, hostedApp, newWorkspace } from './support.js';

const MiB = 2 ** 20;
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** A gauge the test moves: a 1 GiB old space, with `room` bytes left under the default budget (negative: past it). */
function gauge() {
  const reading = memoryReading({ oldGenerationLimit: 1024 * MiB });
  return { memory: () => reading, leave: (room: number) => void (reading.oldGeneration = (DEFAULT_HEAP_BUDGET_PERCENT / 100) * 1024 * MiB - room) };
}

const item = (sku: string) => ({
  merchant_id: MERCHANT,
  supplier_id: DEMO_SUPPLIER_ID,
  sku,
  description: 'Ā'.repeat(65_535),
  costs: [{ minimum_order_quantity: 1, cost: { value: 1, currency: 'USD' } }],
});

describe('writes into a live workspace while the process is short of memory', () => {
  it('When the memory budget is spent, then a create with a JSON body answers 503 with Retry-After and stores nothing, while reads and deletes go on; with room again it answers 201', async () => {
    const g = gauge();
    const t = await hostedApp({}, { memory: g.memory });
    const ws = await newWorkspace(t.app);
    const owner = bearer(ws.tokens.owner);
    const created = await request(t.app).post('/2024-09/supplier-items').set(owner).send(item('ROOM-1')).expect(201);
    const count = async () => (await request(t.app).get(`/2024-09/supplier-items?merchant_id=${MERCHANT}&per_page=1`).set(owner).expect(200)).body.meta.total;
    const before = await count();

    g.leave(-1);
    const refused = await request(t.app).post('/2024-09/supplier-items').set(owner).send(item('SHORT-1'));
    expect(refused.status, refused.text.slice(0, 300)).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toBe("The sandbox is short of memory to take this request's body; retry later.");
    // An update, the relay's writes and the control plane's bodies are held to it too.
    await request(t.app).put(`/2024-09/supplier-items/${created.body.data.id}`).set(owner).send({ description: 'x' }).expect(503);
    await request(t.app).post('/_sandbox/users').set(owner).send({ name: 'Short' }).expect(503);
    expect(await count()).toBe(before);
    // What frees memory is never refused for it.
    await request(t.app).delete(`/2024-09/supplier-items/${created.body.data.id}`).set(owner).expect(204);
    await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).set(owner).expect(204);

    g.leave(16 * MiB);
    await request(t.app).post('/2024-09/supplier-items').set(owner).send(item('ROOM-2')).expect(201);
  });
});
