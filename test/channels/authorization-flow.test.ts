import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { channels, ORDERS, ORDERS_QUERY, relayPath } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

/** get-auth-url as a member, answered as the path-and-query to open on the app. */
async function authUrl(channel: string = channels.unconnected, who: 'owner' | 'member' = 'member') {
  const res = await request(t.app).get(`/2024-09/channels/retailer/${channel}/get-auth-url`).set(t.auth(who));
  expect(res.status).toBe(200);
  const url = new URL(res.body.url);
  return { path: url.pathname + url.search, state: url.searchParams.get('state')! };
}

const decide = (state: string, decision: string) => request(t.app).post('/_retailer/authorize').type('form').send({ state, decision });

/** Approve on the consent page and answer the redirect target as path-and-query (plus the code). */
async function approve(state: string) {
  const res = await decide(state, 'approve');
  expect(res.status).toBe(302);
  const location = new URL(res.headers.location);
  return { location, path: location.pathname + location.search, code: location.searchParams.get('code')! };
}

const connected = async (channel: string = channels.unconnected) =>
  (await request(t.app).get(`/2024-09/channels/${channel}`).set(t.auth('owner'))).body.data.connected as boolean;

describe('the authorization-URL flow', () => {
  it('When the url is opened, then the consent page names merchant and channel and has one form with Approve and Deny', async () => {
    const { path } = await authUrl();
    const page = await request(t.app).get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('Demo Outfitters');
    expect(page.text).toContain('Demo Outfitters CA store');
    expect(page.text.match(/<form/g)).toHaveLength(1);
    expect(page.text).toMatch(/<button[^>]*value="approve"[^>]*>Approve<\/button>/);
    expect(page.text).toMatch(/<button[^>]*value="deny"[^>]*>Deny<\/button>/);
  });

  it('When Approve is chosen, then 302 to the sandbox callback with code and state, and the callback connects the channel', async () => {
    const { state } = await authUrl();
    const { location, path, code } = await approve(state);
    expect(location.pathname).toBe('/_retailer/callback');
    expect(location.searchParams.get('state')).toBe(state);
    expect(code).toMatch(/^AN/);
    const done = await request(t.app).get(path);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Channel connected');
    expect(done.text).toContain('Demo Outfitters CA store');
    expect(await connected()).toBe(true);
    const stored = t.store.channel_connections.get(channels.unconnected)!;
    expect(stored.access_token).toBe(t.store.retailer_grants.get(channels.unconnected)!.access_token);
    const relayed = await request(t.app).get(relayPath(channels.unconnected, ORDERS)).query(ORDERS_QUERY).set(t.auth('owner'));
    expect(relayed.status).toBe(200);
    expect(relayed.headers['x-retailer-status']).toBe('200');
  });

  it('When the same code is used again, then a clear error page (400) and the stored tokens stay as they were', async () => {
    const { state } = await authUrl();
    const { path } = await approve(state);
    await request(t.app).get(path).expect(200);
    const before = t.store.channel_connections.get(channels.unconnected);
    const again = await request(t.app).get(path);
    expect(again.status).toBe(400);
    expect(again.text).toContain('already been used');
    expect(t.store.channel_connections.get(channels.unconnected)).toEqual(before);
  });

  it('When Deny is chosen, then the redirect carries error=access_denied and the callback shows an error page (403), nothing stored', async () => {
    const { state } = await authUrl();
    const res = await decide(state, 'deny');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.has('code')).toBe(false);
    const page = await request(t.app).get(location.pathname + location.search);
    expect(page.status).toBe(403);
    expect(page.text).toContain('denied');
    expect(await connected()).toBe(false);
  });

  it('When the state has expired, then the consent page and the decision answer an error page (400)', async () => {
    const { path, state } = await authUrl();
    t.clock.advance(11 * 60_000);
    const page = await request(t.app).get(path);
    expect(page.status).toBe(400);
    expect(page.text).toContain('expired');
    expect((await decide(state, 'approve')).status).toBe(400);
    expect(await connected()).toBe(false);
  });

  it('When the code has expired before the callback, then an error page (400) and nothing stored', async () => {
    const { state } = await authUrl();
    const { path } = await approve(state);
    t.clock.advance(6 * 60_000);
    const page = await request(t.app).get(path);
    expect(page.status).toBe(400);
    expect(page.text).toContain('expired');
    expect(await connected()).toBe(false);
  });

  it("When a code is presented with another authorization's state, or with an unknown state, then an error page (400) and nothing stored", async () => {
    const first = await authUrl();
    const second = await authUrl(channels.unconnected, 'owner');
    const { code } = await approve(first.state);
    const foreign = await request(t.app).get('/_retailer/callback').query({ code, state: second.state });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('does not belong');
    const unknown = await request(t.app).get('/_retailer/callback').query({ code, state: 'st_unknown' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('not known');
    expect(await connected()).toBe(false);
  });

  it('When a decided state is opened or decided again, or the form sends no decision, then an error page (400)', async () => {
    const { path, state } = await authUrl();
    await approve(state);
    expect((await request(t.app).get(path)).status).toBe(400);
    expect((await decide(state, 'deny')).status).toBe(400);
    const other = await authUrl();
    const bad = await decide(other.state, 'maybe');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Approve or Deny');
  });

  it('When the channel is deleted before the callback, then an error page and nothing is stored', async () => {
    const { state } = await authUrl();
    const { path } = await approve(state);
    await request(t.app).delete(`/2024-09/channels/${channels.unconnected}`).set(t.auth('owner')).expect(204);
    expect((await request(t.app).get(path)).status).toBe(400);
    expect(t.store.channel_connections.has(channels.unconnected)).toBe(false);
  });

  it('When the user who asked for the url left the merchant before the callback, then 403 and nothing stored', async () => {
    const { state } = await authUrl(channels.unconnected, 'member');
    const { path } = await approve(state);
    await t.world.store.transact(() => {
      const membership = t.store.memberships.where('user_id', demo.member.id).find((m) => m.merchant_id === demo.merchant)!;
      t.store.memberships.remove(membership.id);
    });
    const page = await request(t.app).get(path);
    expect(page.status).toBe(403);
    expect(t.store.channel_connections.has(channels.unconnected)).toBe(false);
  });

  it('When a redirect address is configured, then Approve redirects there with code and state', async () => {
    t = await testApp({ retailerRedirectUri: 'https://integrator.example/oauth/retailer' });
    const { state } = await authUrl();
    const { location } = await approve(state);
    expect(`${location.origin}${location.pathname}`).toBe('https://integrator.example/oauth/retailer');
    expect(location.searchParams.get('state')).toBe(state);
    // The integrator forwards the query to the sandbox's callback, which completes the flow.
    expect((await request(t.app).get(`/_retailer/callback${location.search}`)).status).toBe(200);
    expect(await connected()).toBe(true);
  });

  it('When the pages are served, then they are never cached and never leak their URL in a Referer', async () => {
    const { path } = await authUrl();
    const page = await request(t.app).get(path);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(t.errors).toEqual([]);
  });

  it('When get-auth-url is called more often than a channel keeps authorizations open, then the store keeps the newest 20: the oldest link is not known, the newest connects', async () => {
    const urls = [];
    for (let i = 0; i < 45; i++) urls.push(await authUrl());
    expect(t.store.retailer_authorizations.where('channel_id', channels.unconnected)).toHaveLength(20);
    expect((await request(t.app).get(urls[0]!.path)).status).toBe(400);
    expect((await request(t.app).get(urls[25]!.path)).status).toBe(200);
    const { path } = await approve(urls[44]!.state);
    expect((await request(t.app).get(path)).status).toBe(200);
    expect(await connected()).toBe(true);
  });
});
