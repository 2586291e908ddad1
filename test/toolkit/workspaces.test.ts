import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { demo, testApp } from '../helpers/app.js';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function newWorkspace(app: Parameters<typeof request>[0]) {
  const res = await request(app).post('/_sandbox/workspaces').expect(201);
  return res.body.data as { id: string; tokens: Record<'owner' | 'member' | 'outsider' | 'rival', string>; idle_ttl_seconds: number };
}

describe('workspaces', () => {
  it('When a workspace is created, then it answers its id and a secret token per demo user prefixed ws_<id>., which work at once', async () => {
    const t = await testApp();
    const ws = await newWorkspace(t.app);
    expect(ws.id).toMatch(/^[0-9a-f]{12}$/);
    // Each its own 144-bit secret after the routing prefix: no two share it.
    const shaped = new RegExp(`^ws_${ws.id}\\.[A-Za-z0-9_-]{24}$`);
    for (const token of Object.values(ws.tokens)) expect(token).toMatch(shaped);
    expect(new Set(Object.values(ws.tokens)).size).toBe(4);
    expect(ws.idle_ttl_seconds).toBe(3600);
    const merchants = await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(200);
    expect(merchants.body.data.map((m: { name: string }) => m.name)).toContain('Demo Outfitters');
    // The default world keeps working as before, and its tokens are not a workspace's.
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    await request(t.app)
      .get('/2024-09/merchants')
      .set(bearer(`ws_${ws.id}.not-a-token`))
      .expect(401);
    await request(t.app)
      .get('/2024-09/merchants')
      .set(bearer(`ws_${ws.id}.demo-owner-token`))
      .expect(401);
    expect(t.errors).toEqual([]);
  });

  it('When 8 workspaces do the same writes in parallel, then each sees only its own', async () => {
    const t = await testApp();
    const workspaces = await Promise.all(Array.from({ length: 8 }, () => newWorkspace(t.app)));
    await Promise.all(
      workspaces.map(async (ws, i) => {
        for (let n = 0; n < 3; n++) {
          await request(t.app)
            .put(`/2024-09/merchants/${demo.merchant}`)
            .set(bearer(ws.tokens.owner))
            .send({ name: `Workspace ${i} write ${n}` })
            .expect(204);
        }
        await request(t.app).post('/_sandbox/users').query({ workspace: ws.id }).send({ email: 'same@example.com' }).expect(201);
      }),
    );
    for (const [i, ws] of workspaces.entries()) {
      const res = await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(bearer(ws.tokens.owner)).expect(200);
      expect(res.body.data.name).toBe(`Workspace ${i} write 2`);
    }
    const main = await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).expect(200);
    expect(main.body.data.name).toBe('Demo Outfitters');
    expect(t.errors).toEqual([]);
  });

  it("When a token of one workspace asks for another workspace's record, then it is not found there", async () => {
    const t = await testApp();
    const [a, b] = [await newWorkspace(t.app), await newWorkspace(t.app)];
    const user = await request(t.app).post('/_sandbox/users').query({ workspace: a.id }).send({ name: 'Only in A' }).expect(201);
    expect(user.body.data.token).toMatch(new RegExp(`^ws_${a.id}\\.sbx_`));
    await request(t.app).get('/2024-09/users/current').set(bearer(user.body.data.token)).expect(200);
    // The same token under B's prefix, or in the default world, is nobody.
    const suffix = user.body.data.token.slice(`ws_${a.id}.`.length);
    await request(t.app)
      .get('/2024-09/users/current')
      .set(bearer(`ws_${b.id}.${suffix}`))
      .expect(401);
    await request(t.app).get('/2024-09/users/current').set(bearer(suffix)).expect(401);
    // A merchant created in A does not exist in B or in the default world.
    const created = await request(t.app).post('/2024-09/merchants').set(bearer(a.tokens.owner)).send({ name: 'A only' }).expect(201);
    const id = created.body.data.id;
    await request(t.app).get(`/2024-09/merchants/${id}`).set(bearer(b.tokens.owner)).expect(404);
    await request(t.app).get(`/2024-09/merchants/${id}`).set(t.auth('owner')).expect(404);
    await request(t.app).get(`/2024-09/merchants/${id}`).set(bearer(a.tokens.owner)).expect(200);
  });

  it('When a workspace is reset or deleted, then only that world changes', async () => {
    const t = await testApp();
    const [a, b] = [await newWorkspace(t.app), await newWorkspace(t.app)];
    for (const token of [a.tokens.owner, b.tokens.owner, demo.owner.token]) {
      await request(t.app).put(`/2024-09/merchants/${demo.merchant}`).set(bearer(token)).send({ name: 'Changed' }).expect(204);
    }
    await request(t.app).post(`/_sandbox/workspaces/${a.id}/reset`).expect(204);
    const name = async (token: string) => (await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(bearer(token))).body.data?.name;
    expect(await name(a.tokens.owner)).toBe('Demo Outfitters');
    expect(await name(b.tokens.owner)).toBe('Changed');
    expect(await name(demo.owner.token)).toBe('Changed');

    await request(t.app).delete(`/_sandbox/workspaces/${b.id}`).expect(204);
    await request(t.app).get('/2024-09/merchants').set(bearer(b.tokens.owner)).expect(401);
    await request(t.app).delete(`/_sandbox/workspaces/${b.id}`).expect(404);
    await request(t.app).post(`/_sandbox/workspaces/${b.id}/reset`).expect(404);
    expect(await name(a.tokens.owner)).toBe('Demo Outfitters');

    // POST /_sandbox/reset?workspace= is the same reset; without it, the default world alone.
    await request(t.app).put(`/2024-09/merchants/${demo.merchant}`).set(bearer(a.tokens.owner)).send({ name: 'Again' }).expect(204);
    await request(t.app).post('/_sandbox/reset').query({ workspace: a.id }).expect(204);
    expect(await name(a.tokens.owner)).toBe('Demo Outfitters');
    expect(await name(demo.owner.token)).toBe('Changed');
    await request(t.app).post('/_sandbox/reset').expect(204);
    expect(await name(demo.owner.token)).toBe('Demo Outfitters');
  });

  it('When a control-plane call names an unknown workspace, then 404; a malformed name is 422', async () => {
    const t = await testApp();
    for (const call of [
      request(t.app).post('/_sandbox/users').query({ workspace: 'nope' }).send({}),
      request(t.app).post('/_sandbox/reset').query({ workspace: 'nope' }),
      request(t.app).get('/_sandbox/clock').query({ workspace: 'nope' }),
      request(t.app).get('/_sandbox/coverage').query({ workspace: 'nope' }),
      request(t.app).get('/_sandbox/requests').query({ workspace: 'nope' }),
    ]) {
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Workspace not found.' });
    }
    await request(t.app)
      .get('/_sandbox/clock')
      .query({ workspace: 'x'.repeat(65) })
      .expect(422);
    await request(t.app).get('/_sandbox/clock').query({ workspace: 'default' }).expect(200);
  });

  it('When a workspace sits idle past its TTL, then it is gone (its tokens 401, its control plane 404)', async () => {
    let now = 0;
    const t = await testApp({ workspaceIdleTtlMs: 200 }, { now: () => now });
    const ws = await newWorkspace(t.app);
    expect(ws.idle_ttl_seconds).toBe(1);
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(200);
    now += 120;
    // Use keeps it alive.
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(200);
    now += 120;
    await request(t.app).get('/_sandbox/clock').query({ workspace: ws.id }).expect(200);
    now += 199;
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(200);
    now += 200;
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(401);
    await request(t.app).get('/_sandbox/clock').query({ workspace: ws.id }).expect(404);
    expect(t.worlds.workspaceCount).toBe(0);
  });

  it('When the sweeper runs, then idle workspaces are freed even if nobody asks for them again', async () => {
    let now = 0;
    const { Worlds } = await import('../../src/worlds.js');
    const t = await testApp();
    const worlds = new Worlds(t.world, { idleTtlMs: 1000, now: () => now });
    worlds.createWorkspace();
    worlds.createWorkspace();
    now = 999;
    worlds.sweep();
    expect(worlds.workspaceCount).toBe(2);
    now = 1000;
    worlds.sweep();
    expect(worlds.workspaceCount).toBe(0);
    await worlds.close();
  });

  it('When the workspace limit is reached, then 429 with Retry-After', async () => {
    const t = await testApp({ maxWorkspaces: 2 });
    await newWorkspace(t.app);
    await newWorkspace(t.app);
    const res = await request(t.app).post('/_sandbox/workspaces').expect(429);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body.message).toMatch(/2 workspaces/);
  });
});
