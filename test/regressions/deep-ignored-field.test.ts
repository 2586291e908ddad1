// A field the contract does not name may hold anything: dropping it, and journaling it, must not walk it whole.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

const SUPPLIER = 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [{ a: value }];
  return value;
}

describe('a deeply nested field the contract does not name', () => {
  it('When a PUT carries one 2,000 levels deep, then it is ignored (204) and the journal shows it cut short', async () => {
    const t = await testApp();
    const put = await request(t.app)
      .put(`/2024-09/suppliers/${SUPPLIER}`)
      .set(t.auth('owner'))
      .send({ name: 'Deep Supplies', hasOwnProperty: nested(2000) });
    expect(put.status).toBe(204);
    expect(put.headers['sandbox-ignored-fields']).toBe('body.hasOwnProperty');
    const journal = await request(t.app).get('/_sandbox/requests?operation_id=updateSupplier');
    expect(journal.status).toBe(200);
    expect(JSON.stringify(journal.body.data[0].request.body)).toContain('nested deeper than 64 levels');
    expect(t.errors).toEqual([]);
  });
});
