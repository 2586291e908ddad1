import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { channels, relayPath } from './support.js';

let t: TestApp;
let ws: { id: string; tokens: Record<'owner' | 'member', string> };
beforeEach(async () => {
  t = await testApp();
  ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data;
});

const PARTICIPATIONS = 'sellers%2Fv1%2FmarketplaceParticipations';
const wsStore = () => t.worlds.workspace(ws.id)!.world.store.collections;
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

/** get-auth-url in the workspace, consent page, Approve: answers the state and the callback path. */
async function approveInWorkspace() {
  const auth = await request(t.app).get(`/2024-09/channels/retailer/${channels.unconnected}/get-auth-url`).set(t.bearer(ws.tokens.owner)).expect(200);
  const state = new URL(auth.body.url).searchParams.get('state')!;
  const page = await request(t.app).get(pathOf(auth.body.url));
  expect(page.status).toBe(200);
  expect(page.text).toContain('Demo Outfitters CA store');
  const approved = await request(t.app).post('/_retailer/authorize').type('form').send({ state, decision: 'approve' });
  expect(approved.status).toBe(302);
  return { state, callback: pathOf(approved.headers.location) };
}

describe('channels in a workspace', () => {
  it("When a workspace authorizes a channel through the url, then the workspace's channel is connected and the default world's is not", async () => {
    const { state, callback } = await approveInWorkspace();
    expect(state.startsWith(`ws_${ws.id}.st_`)).toBe(true);
    const done = await request(t.app).get(callback);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Channel connected');
    expect(wsStore().channel_connections.has(channels.unconnected)).toBe(true);
    expect(t.store.channel_connections.has(channels.unconnected)).toBe(false);
    expect(t.store.retailer_authorizations.all()).toEqual([]);
    const relayed = await request(t.app).get(relayPath(channels.unconnected, PARTICIPATIONS)).set(t.bearer(ws.tokens.owner));
    expect(relayed.status).toBe(200);
    const main = await request(t.app).get(`/2024-09/channels/${channels.unconnected}`).set(t.auth('owner')).expect(200);
    expect(main.body.data.connected).toBe(false);
    expect(t.errors).toEqual([]);
  });

  it('When the workspace is deleted between consent and callback, then the callback shows an error page and nothing is stored', async () => {
    const { callback } = await approveInWorkspace();
    await request(t.app).delete(`/_sandbox/workspaces/${ws.id}`).expect(204);
    const done = await request(t.app).get(callback);
    expect(done.status).toBe(400);
    expect(done.text).toContain('not known');
    expect(t.store.channel_connections.has(channels.unconnected)).toBe(false);
  });

  it('When a workspace state is tampered into a default-world state, then the default world does not know it (400)', async () => {
    const { state } = await approveInWorkspace();
    const bare = state.slice(state.indexOf('.') + 1);
    const page = await request(t.app).get('/_retailer/authorize').query({ state: bare });
    expect(page.status).toBe(400);
  });

  it("When a workspace channel's call log is read with ?workspace, then it lists the workspace's calls only", async () => {
    await request(t.app).get(relayPath(channels.connected, PARTICIPATIONS)).set(t.bearer(ws.tokens.owner)).expect(200);
    const inWs = await request(t.app).get(`/_sandbox/channels/${channels.connected}/calls`).query({ workspace: ws.id }).expect(200);
    expect(inWs.body.data).toHaveLength(1);
    expect(inWs.body.data[0]).toMatchObject({ endpoint: 'sellers/v1/marketplaceParticipations', status: 200, fault: null });
    expect(inWs.body.meta.path).toContain('/_sandbox/channels/');
    const main = await request(t.app).get(`/_sandbox/channels/${channels.connected}/calls`).expect(200);
    expect(main.body.data).toEqual([]);
    expect(t.errors).toEqual([]);
  });

  it("When a workspace channel's authorization is revoked with ?workspace, then only the workspace's relay needs authorization again", async () => {
    await request(t.app).post(`/_sandbox/channels/${channels.connected}/revoke-authorization`).query({ workspace: ws.id }).expect(204);
    const inWs = await request(t.app).get(relayPath(channels.connected, PARTICIPATIONS)).set(t.bearer(ws.tokens.owner));
    expect(inWs.status).toBe(409);
    expect(inWs.body.reason).toBe('authorization_required');
    await request(t.app).get(relayPath(channels.connected, PARTICIPATIONS)).set(t.auth('owner')).expect(200);
  });

  it('When the channels control plane names an unknown workspace, then 404; a malformed one, then 422', async () => {
    await request(t.app).get(`/_sandbox/channels/${channels.connected}/calls`).query({ workspace: 'feedfacecafe' }).expect(404);
    await request(t.app).post(`/_sandbox/channels/${channels.connected}/revoke-authorization`).query({ workspace: 'feedfacecafe' }).expect(404);
    const bad = await request(t.app)
      .post(`/_sandbox/channels/${channels.connected}/revoke-authorization`)
      .query({ workspace: 'x'.repeat(65) });
    expect(bad.status).toBe(422);
    expect(t.errors).toEqual([]);
  });
});

describe('the journal of a workspace', () => {
  it('When the consent flow runs in a workspace, then its pages are journaled under that workspace', async () => {
    const { callback } = await approveInWorkspace();
    await request(t.app).get(callback).expect(200);
    const journal = await request(t.app).get('/_sandbox/requests').query({ workspace: ws.id, path: '/_retailer/*' }).expect(200);
    expect(journal.body.data.map((e: { method: string; path: string }) => `${e.method} ${e.path}`)).toEqual([
      'GET /_retailer/callback',
      'POST /_retailer/authorize',
      'GET /_retailer/authorize',
    ]);
  });
});
