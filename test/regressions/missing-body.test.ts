import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';

describe('missing body and Content-Type', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
  });

  it('When a POST has no body and no Content-Type, then 422 The body field is required.', async () => {
    const res = await request(t.app).post('/2024-09/supplier-items').set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The body field is required.', errors: { body: ['The body field is required.'] } });
  });

  it('When a PUT has no body and no Content-Type, then 422 The body field is required.', async () => {
    const res = await request(t.app).put(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ body: ['The body field is required.'] });
  });

  it('When a POST has Content-Type JSON and an empty body, then 422 The body field is required.', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', 'application/json');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ body: ['The body field is required.'] });
  });

  it('When a body is an empty object, then it is a body: the fields it lacks are named', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({});
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('name');
  });

  it('When a body is not JSON beyond whitespace or null, then 400 as before', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', 'application/json').send(' nul');
    expect(res.status).toBe(400);
  });

  it('When a body comes with a Content-Type the operation does not take, then 415 JSON with a message', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', 'text/plain').send('name=x');
    expect(res.status).toBe(415);
    expect(res.type).toBe('application/json');
    expect(res.body.message).toMatch(/text\/plain/);
  });

  it('When a body comes without any Content-Type, then 415 JSON, not a guess at its format', async () => {
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .serialize((x) => x as string)
      .send('{"name":"x"}')
      .unset('Content-Type');
    expect(res.status).toBe(415);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('When a POST without a body needs none, then it is not refused', async () => {
    const res = await request(t.app).post('/_sandbox/reset').set(t.auth('owner'));
    expect(res.status).toBeLessThan(400);
  });
});
