import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('the sandbox control plane', () => {
  it('When health is asked, then 200 with status ok, the store kind and the seed', async () => {
    const res = await request(t.app).get('/_sandbox/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', api_version: '2024-09', store: 'memory', seed: 20240901 });
  });

  it('When a user is created, then its token works at once and it has no merchant', async () => {
    const res = await request(t.app).post('/_sandbox/users').send({ name: 'Ada Integrator', email: 'ada@example.com' });
    expect(res.status).toBe(201);
    const { user, token } = res.body.data;
    expect(user).toMatchObject({ name: 'Ada Integrator', email: 'ada@example.com' });
    const me = await request(t.app).get('/2024-09/users/current').set(t.bearer(token));
    expect(me.body.data.id).toBe(user.id);
    expect((await request(t.app).get('/2024-09/merchants').set(t.bearer(token))).body.meta.total).toBe(0);
  });

  it('When a user is created with a taken email, then 422', async () => {
    const res = await request(t.app).post('/_sandbox/users').send({ email: 'owner@demo.example' });
    expect(res.status).toBe(422);
  });

  it('When the sandbox is reset, then writes are gone and the seeded world is back', async () => {
    await request(t.app).put(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).send({ name: 'Changed' }).expect(204);
    const created = await request(t.app).post('/_sandbox/users').send({});
    expect((await request(t.app).post('/_sandbox/reset')).status).toBe(204);
    expect((await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'))).body.data.name).toBe('Demo Outfitters');
    expect((await request(t.app).get('/2024-09/users/current').set(t.bearer(created.body.data.token))).status).toBe(401);
  });
});
