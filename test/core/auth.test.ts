import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['another scheme', 'Basic ZGVtbzpkZW1v'],
    ['an empty bearer token', 'Bearer '],
    ['an unknown token', 'Bearer not-a-token'],
    ['a token with trailing junk', 'Bearer demo-owner-token extra'],
  ])('When the request carries %s, then 401 with a message', async (_label, header) => {
    const req = request(t.app).get('/2024-09/users/current');
    const res = await (header === undefined ? req : req.set('Authorization', header));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('When the bearer token is valid, then the current user is its owner', async () => {
    const res = await request(t.app).get('/2024-09/users/current').set(t.auth('member'));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ email: 'member@demo.example' });
  });

  it('When an unauthenticated request also has a bad body, then 401 comes first', async () => {
    const res = await request(t.app).post('/2024-09/merchants').send({ name: 42 });
    expect(res.status).toBe(401);
  });

  it('When the control plane is called without a token, then it answers (it is not part of the versioned API)', async () => {
    expect((await request(t.app).get('/_sandbox/health')).status).toBe(200);
  });
});
