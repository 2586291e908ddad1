import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

const memberships = (who: 'owner' | 'member' | 'outsider' | 'rival', merchantId: string = demo.merchant) =>
  request(t.app).get('/2024-09/users/merchant-memberships').query({ merchant_id: merchantId }).set(t.auth(who));

describe('the current user', () => {
  it('When the user renames themselves, then 200 with the new name and later reads agree', async () => {
    const res = await request(t.app).put('/2024-09/users/current').set(t.auth('owner')).send({ name: 'Olivia O.' });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Olivia O.');
    expect((await request(t.app).get('/2024-09/users/current').set(t.auth('owner'))).body.data.name).toBe('Olivia O.');
  });

  it('When the user sends their own name and email again, then 200 and their updated_at stays what it was', async () => {
    const read = (await request(t.app).get('/2024-09/users/current').set(t.auth('owner'))).body.data;
    t.clock.advance(1000);
    const res = await request(t.app).put('/2024-09/users/current').set(t.auth('owner')).send({ name: read.name, email: read.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(read);
  });

  it('When the email belongs to another user, then 422 with errors.email', async () => {
    const res = await request(t.app).put('/2024-09/users/current').set(t.auth('owner')).send({ email: 'member@demo.example' });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toBeDefined();
  });

  it('When the body is empty, then 422', async () => {
    expect((await request(t.app).put('/2024-09/users/current').set(t.auth('owner')).send({})).status).toBe(422);
  });
});

describe('memberships', () => {
  it('When a member lists the memberships, then each carries its user and role', async () => {
    const res = await memberships('member');
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { role: string; user: { email: string } }) => [m.user.email, m.role])).toEqual([
      ['owner@demo.example', 'owner'],
      ['member@demo.example', 'member'],
      // The spare member removeMerchantMember's example names.
      ['spare-member@demo.example', 'member'],
    ]);
  });

  it("When an outsider invites themselves to the merchant's id as a urn:uuid:, then 422 errors.merchant_id and no membership is made", async () => {
    const res = await request(t.app)
      .post('/2024-09/users/merchant-memberships/invite')
      .set(t.auth('outsider'))
      .send({ merchant_id: `urn:uuid:${demo.merchant}`, email: 'outsider@demo.example' });
    expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([422, ['merchant_id']]);
    expect(t.store.memberships.all().filter((m) => m.merchant_id.startsWith('urn:'))).toEqual([]);
  });

  it('When a non-member lists them, then 403', async () => {
    expect((await memberships('outsider')).status).toBe(403);
  });

  it('When an existing user is invited by email, then 201 and they see the merchant at once', async () => {
    const res = await request(t.app)
      .post('/2024-09/users/merchant-memberships/invite')
      .set(t.auth('member'))
      .send({ merchant_id: demo.merchant, email: 'Outsider@demo.example' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ user_id: demo.outsider.id, role: 'member' });
    expect((await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('outsider'))).status).toBe(200);
  });

  it('When the invited email belongs to no user, then 422 with errors.email', async () => {
    const res = await request(t.app)
      .post('/2024-09/users/merchant-memberships/invite')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, email: 'nobody@nowhere.example' });
    expect(res.status).toBe(422);
    expect(res.body.errors.email[0]).toMatch(/_sandbox\/users/);
  });

  it('When the invited user is already a member, then 422', async () => {
    const res = await request(t.app)
      .post('/2024-09/users/merchant-memberships/invite')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, email: 'member@demo.example' });
    expect(res.status).toBe(422);
  });

  it('When a stranger invites into a merchant, then 403; into an unknown one, then 404', async () => {
    const invite = (merchantId: string) =>
      request(t.app).post('/2024-09/users/merchant-memberships/invite').set(t.auth('outsider')).send({ merchant_id: merchantId, email: 'rival@demo.example' });
    expect((await invite(demo.merchant)).status).toBe(403);
    expect((await invite('0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c')).status).toBe(404);
  });

  it('When the owner removes a member, then 204 and the member loses access', async () => {
    const res = await request(t.app)
      .post('/2024-09/users/merchant-memberships/remove')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, user_id: demo.member.id });
    expect(res.status).toBe(204);
    expect((await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('member'))).status).toBe(403);
  });

  it('When a plain member removes someone else, then 403; removing themselves (leaving) is allowed', async () => {
    const remove = (userId: string) =>
      request(t.app).post('/2024-09/users/merchant-memberships/remove').set(t.auth('member')).send({ merchant_id: demo.merchant, user_id: userId });
    expect((await remove(demo.owner.id)).status).toBe(403);
    expect((await remove(demo.member.id)).status).toBe(204);
  });

  it('When the last owner would be removed, then 422 and nothing changes', async () => {
    const res = await request(t.app)
      .post('/2024-09/users/merchant-memberships/remove')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, user_id: demo.owner.id });
    expect(res.status).toBe(422);
    expect(res.body.errors.user_id).toBeDefined();
    expect((await memberships('owner')).body.data).toHaveLength(3);
  });

  it('When the user is not a member, then 404', async () => {
    const res = await request(t.app)
      .post('/2024-09/users/merchant-memberships/remove')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, user_id: demo.outsider.id });
    expect(res.status).toBe(404);
  });
});
