// Issue 31, finding 9: every token of a workspace could export, reset and delete its world, the outsider's and
// rival's included, and so could the users POST /_sandbox/users made. Those operations (and user creation) declare
// `x-sandbox-access: owner`: the owner's token or the admin token, 403 for every other token of the workspace.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { OWNER_ONLY_MESSAGE } from '../../src/access/control-plane-access.js';
import { testApp } from '../helpers/app.js';
import { ADMIN, bearer, hostedApp, newWorkspace } from './support.js';

type App = Parameters<typeof request>[0];
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** The owner-only operations of the workspace `id`, each as a request builder. */
const ownerOnly = (app: App, id: string) => ({
  export: () => request(app).get(`/_sandbox/workspaces/${id}/export`),
  resetWorkspace: () => request(app).post(`/_sandbox/workspaces/${id}/reset`),
  reset: () => request(app).post('/_sandbox/reset'),
  delete: () => request(app).delete(`/_sandbox/workspaces/${id}`),
  createUser: () => request(app).post('/_sandbox/users').send({}),
});

/** A change the owner made, which a refused reset would otherwise throw away. */
async function renameMerchant(app: App, owner: string): Promise<void> {
  await request(app).put(`/2024-09/merchants/${MERCHANT}`).set(bearer(owner)).send({ name: 'Kept by the owner' }).expect(204);
}

async function merchantName(app: App, owner: string): Promise<string> {
  return (await request(app).get(`/2024-09/merchants/${MERCHANT}`).set(bearer(owner)).expect(200)).body.data.name;
}

describe('hosted mode: export, reset, delete and user creation take the owner token', () => {
  it('When the member, outsider or rival token or a made user asks for them, then each answers 403 and the world is untouched', async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    await renameMerchant(t.app, ws.tokens.owner);
    const made = (await request(t.app).post('/_sandbox/users').set(bearer(ws.tokens.owner)).send({}).expect(201)).body.data.token as string;
    const users = t.worlds.live(ws.id)!.world.store.collections.users.all().length;
    const others = { member: ws.tokens.member, outsider: ws.tokens.outsider, rival: ws.tokens.rival, made };
    for (const [role, token] of Object.entries(others)) {
      for (const [operation, call] of Object.entries(ownerOnly(t.app, ws.id))) {
        const res = await call().set(bearer(token));
        expect(res.status, `${role} ${operation}`).toBe(403);
        expect(res.body, `${role} ${operation}`).toEqual({ message: OWNER_ONLY_MESSAGE });
      }
    }
    // Nothing was obeyed: the workspace lives, keeps the owner's change and holds no new user.
    expect(await merchantName(t.app, ws.tokens.owner)).toBe('Kept by the owner');
    expect(t.worlds.live(ws.id)!.world.store.collections.users.all()).toHaveLength(users);
    // The same tokens keep their other control-plane rights: reading the clock and the journal.
    for (const token of Object.values(others)) {
      await request(t.app).get('/_sandbox/clock').set(bearer(token)).expect(200);
      await request(t.app).get('/_sandbox/requests').set(bearer(token)).expect(200);
    }
    expect(t.errors).toEqual([]);
  });

  it('When the owner token asks for them, then export 200, user creation 201, both resets 204 and delete 204', async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    const calls = ownerOnly(t.app, ws.id);
    expect((await calls.export().set(bearer(ws.tokens.owner))).body.workspace).toBe(ws.id);
    await calls.createUser().set(bearer(ws.tokens.owner)).expect(201);
    await renameMerchant(t.app, ws.tokens.owner);
    await calls.reset().set(bearer(ws.tokens.owner)).expect(204);
    expect(await merchantName(t.app, ws.tokens.owner)).toBe('Demo Outfitters');
    await renameMerchant(t.app, ws.tokens.owner);
    await calls.resetWorkspace().set(bearer(ws.tokens.owner)).expect(204);
    expect(await merchantName(t.app, ws.tokens.owner)).toBe('Demo Outfitters');
    await calls.delete().set(bearer(ws.tokens.owner)).expect(204);
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(401);
  });

  it("When the admin token asks for them on a visitor's workspace, then each is done", async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ADMIN)).expect(200);
    await request(t.app).post('/_sandbox/users').query({ workspace: ws.id }).set(bearer(ADMIN)).send({}).expect(201);
    await request(t.app).post('/_sandbox/reset').query({ workspace: ws.id }).set(bearer(ADMIN)).expect(204);
    await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).set(bearer(ADMIN)).expect(204);
    await request(t.app).delete(`/_sandbox/workspaces/${ws.id}`).set(bearer(ADMIN)).expect(204);
  });

  it("When another workspace's owner token names this one, then 403 as before (its own workspace only)", async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    const other = await newWorkspace(t.app);
    const res = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(other.tokens.owner)).expect(403);
    expect(res.body.message).toBe('A workspace token acts on its own workspace only.');
  });
});

describe('local mode keeps its convenience, with the same rule for workspace tokens', () => {
  it("When a workspace's member token asks for an export locally, then 403; without a token, 200 as a laptop always did", async () => {
    const t = await testApp({ workspaceCreatePerMinute: 100 });
    const ws = await newWorkspace(t.app);
    const path = `/_sandbox/workspaces/${ws.id}/export`;
    expect((await request(t.app).get(path).set(bearer(ws.tokens.member))).status).toBe(403);
    expect((await request(t.app).get(path)).status).toBe(200);
    expect((await request(t.app).get(path).set(bearer(ws.tokens.owner))).status).toBe(200);
    // The default world's demo tokens scope nothing locally: the member's resets the default world as no token would.
    await request(t.app).post('/_sandbox/reset').set(bearer('demo-member-token')).expect(204);
  });
});
