import request from 'supertest';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ADMIN, bearer, hostedApp, newWorkspace, UNTHROTTLED } from './support.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';

describe('hosted mode: who may do what', () => {
  it('When nobody is authenticated, then health answers 200 and workspace creation 201', async () => {
    const t = await hostedApp();
    await request(t.app).get('/_sandbox/health').expect(200);
    await request(t.app).post('/_sandbox/workspaces').expect(201);
    expect(t.errors).toEqual([]);
  });

  it('When a workspace is created, then its tokens work, while the id with a hand-written demo token is refused (401)', async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(200);
    for (const role of ['owner', 'member', 'outsider', 'rival']) {
      await request(t.app)
        .get('/2024-09/merchants')
        .set(bearer(`ws_${ws.id}.demo-${role}-token`))
        .expect(401);
    }
    // At least 128 random bits after the routing prefix, each token its own.
    for (const token of Object.values(ws.tokens)) {
      const secret = token.slice(`ws_${ws.id}.`.length);
      expect(Buffer.from(secret, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it("When the default world's demo token calls the versioned API, then 401 with a message pointing to POST /_sandbox/workspaces", async () => {
    const t = await hostedApp();
    const res = await request(t.app).get('/2024-09/merchants').set(bearer('demo-owner-token')).expect(401);
    expect(res.body.message).toContain('POST /_sandbox/workspaces');
  });

  it('When a control-plane call carries no token or an unknown one, then every operation but health and creation answers 401', async () => {
    // More wrong tokens than the default throttle lets one address send (admin-throttle.test.ts shows the 429).
    const t = await hostedApp({ adminAttemptsPerHour: UNTHROTTLED });
    const ws = await newWorkspace(t.app);
    const calls = [
      () => request(t.app).post('/_sandbox/reset'),
      () => request(t.app).get('/_sandbox/requests'),
      () => request(t.app).delete('/_sandbox/requests'),
      () => request(t.app).get('/_sandbox/coverage'),
      () => request(t.app).get('/_sandbox/clock'),
      () => request(t.app).post('/_sandbox/clock/advance').send({ hours: 1 }),
      () => request(t.app).post('/_sandbox/users').send({}),
      () => request(t.app).delete(`/_sandbox/workspaces/${ws.id}`),
      () => request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`),
      () => request(t.app).get(`/_sandbox/channels/${CHANNEL}/calls`),
      () => request(t.app).post(`/_sandbox/channels/${CHANNEL}/revoke-authorization`),
    ];
    for (const call of calls) {
      expect((await call()).status).toBe(401);
      expect((await call().set(bearer(`ws_${ws.id}.demo-owner-token`))).status).toBe(401);
      expect((await call().set(bearer('demo-owner-token'))).status).toBe(401);
      expect((await call().query({ workspace: ws.id })).status).toBe(401);
    }
    // Nothing was obeyed: the workspace is still there.
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(200);
    expect(t.errors).toEqual([]);
  });

  it('When the admin token names any world, then it may read, reset and delete it', async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    await request(t.app).put(`/2024-09/merchants/${MERCHANT}`).set(bearer(ws.tokens.owner)).send({ name: 'Renamed' }).expect(204);
    const journal = await request(t.app).get('/_sandbox/requests').query({ workspace: ws.id }).set(bearer(ADMIN)).expect(200);
    expect(journal.body.data.some((e: { method: string }) => e.method === 'PUT')).toBe(true);
    await request(t.app).post('/_sandbox/clock/advance').query({ workspace: ws.id }).set(bearer(ADMIN)).send({ hours: 1 }).expect(200);
    await request(t.app).post('/_sandbox/reset').query({ workspace: ws.id }).set(bearer(ADMIN)).expect(204);
    const merchant = await request(t.app).get(`/2024-09/merchants/${MERCHANT}`).set(bearer(ws.tokens.owner)).expect(200);
    expect(merchant.body.data.name).toBe('Demo Outfitters');
    await request(t.app).get('/_sandbox/requests').set(bearer(ADMIN)).expect(200);
    await request(t.app).delete(`/_sandbox/workspaces/${ws.id}`).set(bearer(ADMIN)).expect(204);
    await request(t.app).get('/2024-09/merchants').set(bearer(ws.tokens.owner)).expect(401);
    await request(t.app)
      .get('/_sandbox/requests')
      .set(bearer(`${ADMIN}x`))
      .expect(401);
    expect(t.errors).toEqual([]);
  });

  it('When one address creates more workspaces in a minute than allowed, then 429 with Retry-After and a message, and the next minute it may again', async () => {
    // The limit is rate-limiter-flexible's, which reads the wall clock: only Date is mocked, timers stay real.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:00Z') });
    onTestFinished(() => void vi.useRealTimers());
    const t = await hostedApp({ workspaceCreatePerMinute: 3 });
    for (let i = 0; i < 3; i++) await request(t.app).post('/_sandbox/workspaces').expect(201);
    vi.setSystemTime(Date.now() + 20_000);
    const refused = await request(t.app).post('/_sandbox/workspaces').expect(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.body.message).toMatch(/3 workspaces this minute/);
    vi.setSystemTime(Date.now() + 39_000);
    await request(t.app).post('/_sandbox/workspaces').expect(429);
    vi.setSystemTime(Date.now() + 1_000);
    await request(t.app).post('/_sandbox/workspaces').expect(201);
    expect(t.errors).toEqual([]);
  });

  it('When two addresses create workspaces behind a trusted proxy, then each has its own allowance', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 1, trustProxy: true });
    await request(t.app).post('/_sandbox/workspaces').set('X-Forwarded-For', '203.0.113.1').expect(201);
    await request(t.app).post('/_sandbox/workspaces').set('X-Forwarded-For', '203.0.113.1').expect(429);
    await request(t.app).post('/_sandbox/workspaces').set('X-Forwarded-For', '203.0.113.2').expect(201);
  });
});
