import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ADMIN, bearer, hostedApp, newWorkspace } from './support.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const UNCONNECTED_CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc002';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const secretOf = (token: string) => token.split('.')[1]!;

describe('nothing leaks between workspaces', () => {
  it('When nobody is authenticated in hosted mode, then the global journal and coverage answer 401', async () => {
    const t = await hostedApp();
    await newWorkspace(t.app);
    const res = await request(t.app).get('/_sandbox/requests').expect(401);
    expect(JSON.stringify(res.body)).not.toContain('ws_');
    await request(t.app).get('/_sandbox/coverage').expect(401);
  });

  for (const hosted of [true, false]) {
    it(`When the whole journal is read (${hosted ? 'admin token, hosted' : 'no token, local'}), then no entry holds any workspace's token`, async () => {
      const t = await hostedApp({ hosted, ...(hosted ? {} : { adminToken: undefined }) });
      const a = await newWorkspace(t.app);
      const b = await newWorkspace(t.app);
      await request(t.app).get('/2024-09/merchants').set(bearer(a.tokens.owner)).expect(200);
      const user = await request(t.app).post('/_sandbox/users').set(bearer(b.tokens.owner)).send({}).expect(201);
      const journal = await request(t.app)
        .get('/_sandbox/requests')
        .set(hosted ? bearer(ADMIN) : {})
        .expect(200);
      const text = JSON.stringify(journal.body);
      const created = journal.body.data.filter((e: { operation_id: string }) => e.operation_id === 'createSandboxWorkspace');
      expect(created).toHaveLength(2);
      expect(created[0].response.body.data.tokens).toBe('[REDACTED]');
      for (const token of [...Object.values(a.tokens), ...Object.values(b.tokens), user.body.data.token as string]) expect(text).not.toContain(token);
      for (const ws of [a, b]) expect(text).not.toContain(secretOf(ws.tokens.owner));
    });
  }

  it("When a workspace reads its journal and coverage, then another workspace's requests are not there", async () => {
    const t = await hostedApp();
    const a = await newWorkspace(t.app);
    const b = await newWorkspace(t.app);
    await request(t.app).put(`/2024-09/merchants/${MERCHANT}`).set(bearer(b.tokens.owner)).send({ name: 'B was here' }).expect(204);
    const journal = await request(t.app).get('/_sandbox/requests').set(bearer(a.tokens.owner)).expect(200);
    expect(JSON.stringify(journal.body)).not.toContain('B was here');
    expect(JSON.stringify(journal.body)).not.toContain(b.id);
    const coverage = await request(t.app).get('/_sandbox/coverage').set(bearer(a.tokens.member)).expect(200);
    const update = coverage.body.data.operations.find((o: { operation_id: string }) => o.operation_id === 'updateMerchant');
    expect(update.answered).toEqual([]);
  });

  it("When a consent state or an uploaded image's URL is known, then it finds its world but grants no API access", async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    const auth = await request(t.app).get(`/2024-09/channels/retailer/${UNCONNECTED_CHANNEL}/get-auth-url`).set(bearer(ws.tokens.owner)).expect(200);
    const state = new URL(auth.body.url).searchParams.get('state')!;
    expect(state.startsWith(`ws_${ws.id}.`)).toBe(true);
    expect(state).not.toContain(secretOf(ws.tokens.owner));
    const page = await request(t.app).get('/_retailer/authorize').query({ state });
    expect(page.status).toBe(200);
    await request(t.app).get('/2024-09/merchants').set(bearer(state)).expect(401);
    await request(t.app).get('/_sandbox/clock').set(bearer(state)).expect(401);

    const product = await request(t.app)
      .post('/2024-09/products')
      .set(bearer(ws.tokens.owner))
      .send({ merchant_id: MERCHANT, sku: 'LEAK-1', title: 'x' })
      .expect(201);
    const image = await request(t.app)
      .post(`/2024-09/products/${product.body.data.id}/images`)
      .set(bearer(ws.tokens.owner))
      .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
      .expect(201);
    const url = new URL(image.body.data.url);
    expect(url.search).toBe(`?workspace=${ws.id}`);
    await request(t.app)
      .get(url.pathname + url.search)
      .expect(200);
    // The id the URL shows is no key to the control plane.
    await request(t.app).get('/_sandbox/clock').query({ workspace: ws.id }).expect(401);
    expect(t.errors).toEqual([]);
  });
});
