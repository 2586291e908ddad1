import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { SPARE_MERCHANT_ID } from '../../src/areas/spares/fixture-ids.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('merchants', () => {
  it('When the owner lists merchants, then only the merchants they belong to come back, paginated', async () => {
    const res = await request(t.app).get('/2024-09/merchants').set(t.auth('owner'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual([demo.merchant, SPARE_MERCHANT_ID]);
    expect(res.body.meta).toMatchObject({ current_page: 1, total: 2, per_page: 15, from: 1, to: 2, last_page: 1 });
  });

  it('When a merchant is created, then 201 and the creator can get it as owner', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('outsider')).send({ name: 'Northwind' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Northwind' });
    const got = await request(t.app).get(`/2024-09/merchants/${res.body.data.id}`).set(t.auth('outsider'));
    expect(got.status).toBe(200);
    const memberships = await request(t.app).get('/2024-09/users/merchant-memberships').query({ merchant_id: res.body.data.id }).set(t.auth('outsider'));
    expect(memberships.body.data).toEqual([expect.objectContaining({ user_id: demo.outsider.id, role: 'owner' })]);
  });

  it('When the merchant name is missing, then 422 with errors.name', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({});
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('name');
    expect(res.body.message).toMatch(/name/);
  });

  it("When the merchant belongs to another merchant's users, then 403", async () => {
    const res = await request(t.app).get(`/2024-09/merchants/${demo.rivalMerchant}`).set(t.auth('owner'));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String) });
  });

  it('When the merchant does not exist, then 404; a malformed id is 404 too', async () => {
    expect((await request(t.app).get('/2024-09/merchants/0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c').set(t.auth('owner'))).status).toBe(404);
    const bad = await request(t.app).get('/2024-09/merchants/not-a-uuid').set(t.auth('owner'));
    expect(bad.status).toBe(404);
    expect(bad.body.message).toEqual(expect.any(String));
  });

  it('When a member renames the merchant, then 204 and the new name is served', async () => {
    const res = await request(t.app).put(`/2024-09/merchants/${demo.merchant}`).set(t.auth('member')).send({ name: 'Renamed' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const got = await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'));
    expect(got.body.data.name).toBe('Renamed');
  });

  it('When a merchant is renamed to the name it has, then 204 and its updated_at stays what it was', async () => {
    const read = (await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'))).body.data;
    t.clock.advance(1000);
    expect((await request(t.app).put(`/2024-09/merchants/${demo.merchant}`).set(t.auth('member')).send({ name: read.name })).status).toBe(204);
    expect((await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'))).body.data).toEqual(read);
  });

  it('When a plain member deletes the merchant, then 403; when the owner does, then 204 and it is gone', async () => {
    expect((await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('member'))).status).toBe(403);
    const res = await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'));
    expect(res.status).toBe(204);
    expect((await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'))).status).toBe(404);
    expect(t.store.memberships.where('merchant_id', demo.merchant)).toEqual([]);
  });
});
