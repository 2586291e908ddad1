// A query value holding a reserved character as clients send it: `+` for a space (URLSearchParams, Python's
// requests, an HTML form), and the characters encodeURIComponent or axios leave as typed (`'()*!`, `:`, `,`). The
// real service reads them as any value; the validator refuses them unless the parameter allows reserved characters.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { contract, demo, testApp, type TestApp } from '../helpers/app.js';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('query values with reserved characters, sent as clients type them', () => {
  it('When a product search is sent as URLSearchParams writes it (q=running+shoes), then 200 searching for the words', async () => {
    const created = await request(t.app)
      .post('/2024-09/products')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, sku: 'RS-1', title: 'Trail running shoes' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const query = new URLSearchParams({ merchant_id: demo.merchant, q: 'running shoes' }).toString();
    expect(query).toContain('q=running+shoes');
    const res = await request(t.app).get(`/2024-09/products?${query}`).set(t.auth('owner'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toContain(created.body.data.id);
  });

  it.each(["Kid's shoes (red)", 'size: 10, wide', 'a*b!', 'AB/12@x;y'])(
    'When q is %j with its reserved characters typed, then 200, never a 422 about url encoding',
    async (value) => {
      const typed = value.replace(/ /g, '%20');
      const res = await request(t.app).get(`/2024-09/products?merchant_id=${demo.merchant}&q=${typed}`).set(t.auth('owner'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
  );

  it('When a typed reserved character makes a uuid filter wrong, then 422 names its format, not url encoding', async () => {
    const res = await request(t.app).get(`/2024-09/products?merchant_id=${demo.merchant},x`).set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(res.body.errors.merchant_id).toEqual(['The merchant_id field must match format "uuid".']);
  });

  it('When the contract is walked, then every query parameter allows reserved characters', () => {
    type Parameter = { $ref?: string; name?: string; in?: string; allowReserved?: boolean };
    type PathItem = Record<string, { parameters?: Parameter[] }> & { parameters?: Parameter[] };
    const doc = contract.doc as unknown as { paths: Record<string, PathItem>; components: { parameters: Record<string, Parameter> } };
    const deref = (p: Parameter) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p);
    const refusing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!op) continue;
        for (const parameter of [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref)) {
          if (parameter.in === 'query' && parameter.allowReserved !== true) refusing.push(`${method} ${path} ${parameter.name}`);
        }
      }
    }
    expect(refusing).toEqual([]);
  });
});
