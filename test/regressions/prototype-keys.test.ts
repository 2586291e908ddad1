import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { toFieldErrors } from '../../src/http/validation-errors.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';

const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

describe('prototype-named keys', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
  });

  it.each(KEYS)('When a JSON body has the key %s and an invalid field, then 422 JSON, never 500 HTML', async (key) => {
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .set('Content-Type', 'application/json')
      .send(`{${JSON.stringify(key)}: {"x": 1}, "name": 5}`);
    expect(res.status).toBe(422);
    expect(res.type).toBe('application/json');
    expect(res.body.errors.name).toEqual(['The name field must be string.']);
    expect(t.errors).toEqual([]);
  });

  it.each(KEYS)('When a nested body object has the key %s, then no 5xx', async (key) => {
    const res = await request(t.app)
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .set('Content-Type', 'application/json')
      .send(
        `{"merchant_id": "${demo.merchant}", "costs": [{${JSON.stringify(key)}: 1, "minimum_order_quantity": "x", "cost": {${JSON.stringify(key)}: [], "value": -1}}]}`,
      );
    expect(res.status).toBe(422);
    expect(res.body.message).toEqual(expect.any(String));
    expect(t.errors).toEqual([]);
  });

  it.each(KEYS)('When a query has the key %s next to an invalid value, then no 5xx', async (key) => {
    const res = await request(t.app)
      .get(`/2024-09/merchants?${encodeURIComponent(key)}=1&${encodeURIComponent(key)}[a]=2&per_page=x`)
      .set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(res.type).toBe('application/json');
    expect(res.body.message).toEqual(expect.any(String));
    expect(t.errors).toEqual([]);
  });

  it('When validator errors name constructor, __proto__ and toString, then each gets its own list and none is inherited', () => {
    const errors = toFieldErrors(KEYS.map((key) => ({ path: `/body/${key}`, message: 'is invalid', errorCode: 'type.openapi.validation' })));
    expect(Object.getPrototypeOf(errors)).toBeNull();
    for (const key of KEYS) expect(Object.getOwnPropertyDescriptor(errors, key)?.value).toEqual([`The ${key} field is invalid.`]);
    expect(JSON.parse(JSON.stringify(errors))).toHaveProperty(['__proto__']);
  });
});
