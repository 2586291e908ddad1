// A JSON text that is a number, a string or a boolean is valid JSON (RFC 8259): sent as a body that must be an
// object, it is refused as `[]` is, 422 "The body field must be object.", not 400 "The request body is not valid
// JSON.", which tells the client to look for a syntax error that is not there. `null` and no bytes stay no body.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

const SCALARS = ['1', '-2.5e3', 'true', 'false', '"x"', ' "a string" '];

describe('a JSON body that is a scalar', () => {
  it.each([
    ['createMerchant', 'post', '/2024-09/merchants'],
    ['createSandboxUser (an optional body)', 'post', '/_sandbox/users'],
    ['createSandboxWorkspace (a bundle)', 'post', '/_sandbox/workspaces'],
  ] as const)('When %s is sent 1, true or "x" as its JSON body, then 422 The body field must be object., as for []', async (_name, method, path) => {
    const t = await testApp();
    const array = await request(t.app)[method](path).set(t.auth('owner')).set('Content-Type', 'application/json').send('[]');
    expect(array.status).toBe(422);
    for (const scalar of SCALARS) {
      const res = await request(t.app)[method](path).set(t.auth('owner')).set('Content-Type', 'application/json').send(scalar);
      expect({ sent: scalar, status: res.status, body: res.body }).toEqual({ sent: scalar, status: 422, body: array.body });
    }
    expect(t.errors).toEqual([]);
  });

  it('When a scalar body names a merchant that does not exist, then 404 first: the records the request names come before its shape', async () => {
    const t = await testApp();
    await request(t.app)
      .put('/2024-09/merchants/00000000-0000-4000-8000-000000000000')
      .set(t.auth('owner'))
      .set('Content-Type', 'application/json')
      .send('1')
      .expect(404);
  });
});
