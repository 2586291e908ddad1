import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { listOperations, loadContract } from '../../src/contract/document/load-contract.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';

// Every list with page/per_page, with the path ids and required query that reach its pagination.
const lists = listOperations(loadContract().doc).filter((op) =>
  ((op.operation.parameters ?? []) as { $ref?: string }[]).some((p) => p.$ref === '#/components/parameters/PerPage'),
);

describe('non-finite page and per_page', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
  });
  const get = (query: string) => request(t.app).get(`/2024-09/merchants?${query}`).set(t.auth('owner'));

  it.each(['1e309', 'Infinity', '-Infinity', '-1e400'])('When per_page is %s, then 422 naming per_page', async (value) => {
    const res = await get(`per_page=${value}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['per_page']);
    expect(t.errors).toEqual([]);
  });

  it.each(['1e309', 'Infinity', '-Infinity'])('When page is %s, then 422 naming page', async (value) => {
    const res = await get(`page=${value}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['page']);
  });

  it('When page is a huge finite number, then 422 naming page (pages go up to 2147483647)', async () => {
    const res = await get('page=99999999999999999999');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['page']);
  });

  it('When minimum_profit is 1e309, then 422 naming minimum_profit', async () => {
    const res = await request(t.app).get(`/2024-09/forecasting/opportunity-forecasts?merchant_id=${demo.merchant}&minimum_profit=1e309`).set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['minimum_profit']);
  });

  it('When any paginated list gets per_page=1e309, then it answers no 5xx', async () => {
    expect(lists.length).toBeGreaterThanOrEqual(15);
    for (const op of lists) {
      const path = op.path.replace(/\{[^}]+\}/g, demo.merchant);
      const res = await request(t.app).get(`${path}?merchant_id=${demo.merchant}&per_page=1e309`).set(t.auth('owner'));
      expect(res.status, `${op.operationId} answered ${res.status}`).toBeLessThan(500);
    }
    expect(t.errors).toEqual([]);
  });
});
