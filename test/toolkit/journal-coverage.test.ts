import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { demo, testApp } from '../helpers/app.js';

const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc002';

describe('the request journal', () => {
  it('When requests were made, then GET /_sandbox/requests lists them newest first with operationId, status and bodies', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    await request(t.app).get(`/2024-09/merchants/${demo.rivalMerchant}`).set(t.auth('owner')).expect(403);
    await request(t.app).put(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).send({ name: 'Renamed' }).expect(204);
    const res = await request(t.app).get('/_sandbox/requests').expect(200);
    expect(res.body.data.map((e: { operation_id: string; status: number }) => [e.operation_id, e.status])).toEqual([
      ['updateMerchant', 204],
      ['getMerchant', 403],
      ['listMerchants', 200],
    ]);
    const [put, , list] = res.body.data;
    expect(put).toMatchObject({ workspace: 'default', method: 'PUT', path: `/2024-09/merchants/${demo.merchant}`, request: { body: { name: 'Renamed' } } });
    expect(list.response.body.data[0].name).toBe('Demo Outfitters');
    expect(t.errors).toEqual([]);
  });

  it('When the journal is filtered by method, path, operation_id, status, workspace and limit, then only matches come back', async () => {
    const t = await testApp();
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data;
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    await request(t.app)
      .get('/2024-09/merchants')
      .set({ Authorization: `Bearer ${ws.tokens.owner}` })
      .expect(200);
    await request(t.app).get('/2024-09/users/current').set(t.auth('owner')).expect(200);
    await request(t.app).get('/2024-09/merchants').expect(401);
    await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({}).expect(422);
    const list = async (query: Record<string, string | number>) =>
      (await request(t.app).get('/_sandbox/requests').query(query).expect(200)).body.data as {
        operation_id: string;
        status: number;
        workspace: string;
        method: string;
      }[];
    expect((await list({ method: 'POST' })).map((e) => e.status)).toEqual([422, 201]);
    expect((await list({ path: '/2024-09/users/current' })).map((e) => e.operation_id)).toEqual(['getCurrentUser']);
    expect((await list({ path: '/2024-09/m*' })).length).toBe(4);
    expect((await list({ operation_id: 'listMerchants' })).map((e) => e.status)).toEqual([401, 200, 200]);
    expect((await list({ status: '4xx' })).map((e) => e.status)).toEqual([422, 401]);
    expect((await list({ status: '401' })).length).toBe(1);
    expect((await list({ workspace: ws.id })).map((e) => e.operation_id)).toEqual(['listMerchants']);
    expect((await list({ workspace: 'default', operation_id: 'listMerchants' })).length).toBe(2);
    expect((await list({ limit: 2 })).map((e) => e.status)).toEqual([422, 401]);
    await request(t.app).get('/_sandbox/requests').query({ status: 'abc' }).expect(422);
    await request(t.app).get('/_sandbox/requests').query({ limit: 0 }).expect(422);
  });

  it('When a request carries a bearer token or connection-data secrets, then the journal never shows them', async () => {
    const t = await testApp();
    await request(t.app)
      .post(`/2024-09/channels/retailer/${CHANNEL}/connection-data`)
      .set(t.auth('owner'))
      .send({ access_token: 'Atza|SECRET-ACCESS', access_token_expires_at: '2030-01-01T00:00:00.000Z', refresh_token: 'Atzr|SECRET-REFRESH' });
    await request(t.app).get('/2024-09/users/current?access_token=SECRET-IN-QUERY').set(t.auth('owner'));
    const journal = JSON.stringify((await request(t.app).get('/_sandbox/requests').expect(200)).body);
    expect(journal).toContain('connection-data');
    expect(journal).toContain('Bearer [REDACTED]');
    for (const secret of ['demo-owner-token', 'SECRET-ACCESS', 'SECRET-REFRESH', 'SECRET-IN-QUERY']) expect(journal).not.toContain(secret);
  });

  it('When the journal is cleared for one workspace or for all, then those entries are gone', async () => {
    const t = await testApp();
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data;
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner'));
    await request(t.app)
      .get('/2024-09/merchants')
      .set({ Authorization: `Bearer ${ws.tokens.owner}` });
    await request(t.app).delete('/_sandbox/requests').query({ workspace: ws.id }).expect(204);
    const left = (await request(t.app).get('/_sandbox/requests')).body.data.map((e: { workspace: string }) => e.workspace);
    expect(left).not.toContain(ws.id);
    expect(left).toContain('default');
    await request(t.app).delete('/_sandbox/requests').expect(204);
    // Journal reads and clears are tooling calls and are not journaled themselves.
    expect((await request(t.app).get('/_sandbox/requests')).body.data).toEqual([]);
  });

  it('When the journal is full, then the oldest entry is dropped (bounded size)', async () => {
    const t = await testApp({ journalSize: 3 });
    for (let i = 0; i < 5; i++) await request(t.app).get('/2024-09/users/current').set(t.auth('owner'));
    expect((await request(t.app).get('/_sandbox/requests')).body.data).toHaveLength(3);
  });
});

describe('coverage', () => {
  type Op = { operation_id: string; answered: string[]; missing: string[]; documented: string[] };
  const coverage = async (t: Awaited<ReturnType<typeof testApp>>, workspace?: string) => {
    const res = await request(t.app)
      .get('/_sandbox/coverage')
      .query(workspace ? { workspace } : {})
      .expect(200);
    return res.body.data as { workspace: string; operations: Op[]; totals: { answered_statuses: number; documented_statuses: number; percent: number } };
  };

  it('When statuses were answered, then coverage lists them as answered and the rest as missing; a reset clears it', async () => {
    const t = await testApp();
    const before = await coverage(t);
    expect(before.totals.answered_statuses).toBe(0);
    expect(before.operations.some((o) => o.operation_id.startsWith('getSandbox'))).toBe(false);
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    await request(t.app).get('/2024-09/merchants').expect(401);
    const after = await coverage(t);
    const list = after.operations.find((o) => o.operation_id === 'listMerchants')!;
    expect(list.answered).toEqual(['200', '401']);
    expect(list.missing).toEqual(list.documented.filter((s) => s !== '200' && s !== '401'));
    expect(after.totals.answered_statuses).toBe(2);
    expect(after.totals.percent).toBeGreaterThan(0);
    await request(t.app).post('/_sandbox/reset').expect(204);
    expect((await coverage(t)).totals.answered_statuses).toBe(0);
  });

  it('When a path is sent a method it does not have (405), then each operation of that path has its documented 405 answered, in the world of the token', async () => {
    const t = await testApp();
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data;
    const auth = { Authorization: `Bearer ${ws.tokens.owner}` };
    await request(t.app).patch('/2024-09/merchants').set(auth).send({}).expect(405);
    await request(t.app).post('/2024-09/users/current').set(auth).send({}).expect(405);
    const mine = await coverage(t, ws.id);
    const answered = (id: string) => mine.operations.find((o) => o.operation_id === id)!.answered;
    expect(answered('listMerchants')).toEqual(['405']);
    expect(answered('createMerchant')).toEqual(['405']);
    expect(answered('getCurrentUser')).toEqual(['405']);
    expect(answered('getMerchant')).toEqual([]);
    // listMerchants, createMerchant and every operation of /2024-09/users/current.
    const usersCurrent = mine.operations.filter((o) => (o as Op & { path: string }).path === '/2024-09/users/current').length;
    expect(mine.totals.answered_statuses).toBe(2 + usersCurrent);
    expect((await coverage(t)).totals.answered_statuses).toBe(0);
  });

  it('When a path that is no route is asked (404), then no operation is credited', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchant').set(t.auth('owner')).expect(404);
    expect((await coverage(t)).totals.answered_statuses).toBe(0);
  });

  it('When a workspace is used, then its coverage is its own', async () => {
    const t = await testApp();
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data;
    await request(t.app)
      .get('/2024-09/users/current')
      .set({ Authorization: `Bearer ${ws.tokens.owner}` })
      .expect(200);
    const mine = await coverage(t, ws.id);
    expect(mine.workspace).toBe(ws.id);
    expect(mine.operations.find((o) => o.operation_id === 'getCurrentUser')!.answered).toEqual(['200']);
    expect((await coverage(t)).totals.answered_statuses).toBe(0);
  });
});

describe('the sandbox clock', () => {
  it('When a workspace clock is advanced, then its catalog import completes there and nowhere else', async () => {
    const t = await testApp();
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data;
    const marketplace = t.store.marketplaces.all()[0]!.id;
    const body = { merchant_id: demo.merchant, marketplace_id: marketplace, identifiers: [{ type: 'EAN', value: '4006381333931' }] };
    const startImport = async (token: string) => {
      const res = await request(t.app)
        .post('/2024-09/marketplaces/catalog-item-imports')
        .set({ Authorization: `Bearer ${token}` })
        .send(body);
      expect(res.status).toBe(201);
      return res.body.data;
    };
    const status = async (token: string, id: string) =>
      (
        await request(t.app)
          .get('/2024-09/marketplaces/catalog-item-imports')
          .query({ merchant_id: demo.merchant, per_page: 100 })
          .set({ Authorization: `Bearer ${token}` })
          .expect(200)
      ).body.data.find((i: { id: string }) => i.id === id).status;
    const mine = await startImport(ws.tokens.owner);
    const theirs = await startImport(demo.owner.token);
    expect(mine.status).not.toBe('completed');

    const clock = await request(t.app).get('/_sandbox/clock').query({ workspace: ws.id }).expect(200);
    expect(clock.body.data).toMatchObject({ workspace: ws.id, offset_ms: 0 });
    const advanced = await request(t.app).post('/_sandbox/clock/advance').query({ workspace: ws.id }).send({ days: 1, hours: 1 }).expect(200);
    expect(advanced.body.data.offset_ms).toBe(25 * 3600 * 1000);
    expect(Date.parse(advanced.body.data.now) - Date.now()).toBeGreaterThan(24 * 3600 * 1000);

    expect(await status(ws.tokens.owner, mine.id)).toBe('completed');
    expect(await status(demo.owner.token, theirs.id)).toBe(theirs.status);
    expect((await request(t.app).get('/_sandbox/clock')).body.data.offset_ms).toBe(0);
    // A reset puts the workspace clock back.
    await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).expect(204);
    expect((await request(t.app).get('/_sandbox/clock').query({ workspace: ws.id })).body.data.offset_ms).toBe(0);
    expect(t.errors).toEqual([]);
  });

  it('When the advance is empty, negative or too large, then 422', async () => {
    const t = await testApp();
    await request(t.app).post('/_sandbox/clock/advance').send({}).expect(422);
    await request(t.app).post('/_sandbox/clock/advance').send({ hours: -1 }).expect(422);
    await request(t.app).post('/_sandbox/clock/advance').send({ weeks: 1 }).expect(422);
    const res = await request(t.app).post('/_sandbox/clock/advance').send({ days: 366, hours: 1 }).expect(422);
    expect(res.body.message).toMatch(/366 days/);
  });
});
