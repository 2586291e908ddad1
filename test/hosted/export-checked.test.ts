// An export is streamed in pieces, past the response validator, so each piece is checked against its part of the
// contract's SandboxWorkspaceBundle (issue 31, finding 7): a world holding what no API call could have written (a
// bug's state, put in the store here directly) is answered 500 and logged, and no piece of it is sent.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { bearer, hostedApp, newWorkspace } from './support.js';

/** Puts a record in a workspace's store as only a bug could: past the API's checks (a title of 300 characters; the contract allows 255). */
function plantOverlongTitle(t: Awaited<ReturnType<typeof hostedApp>>, workspace: string): void {
  const { store } = t.worlds.workspace(workspace)!.world;
  void store.transact(() => {
    store.collections.products.update(DEMO_PRODUCT_ID, { title: 'T'.repeat(300) });
  });
}

describe('a streamed export is checked against the contract (hosted)', () => {
  it('When a record of the world breaks its schema, then the export answers 500, logs which part broke, and sends no bundle', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 100 });
    const ws = await newWorkspace(t.app);
    await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner)).expect(200);
    plantOverlongTitle(t, ws.id);
    const res = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Server Error' });
    expect(t.errors.join('\n')).toMatch(/breaks the contract's SandboxWorkspaceBundle: changes\.products\.changed\.0\.title/);
  });
});
