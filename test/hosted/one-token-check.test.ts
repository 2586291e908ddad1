import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { checkToken } from '../../src/access/auth.js';
import { demo, testApp } from '../helpers/app.js';
import { ADMIN, PUBLIC_URL } from './support.js';

// One check of a versioned-API token (checkToken): the pipeline's 401 and runtime.authenticate
// agree on every token, the hosted rule for the default world's demo tokens included.
describe('one check of a bearer token', () => {
  it("When hosted, then the default world's demo token is refused by the pipeline and by runtime.authenticate alike, and a workspace's token is accepted by both", async () => {
    const t = await testApp({ hosted: true, adminToken: ADMIN, publicUrl: PUBLIC_URL });
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data;
    for (const [token, accepted] of [
      [demo.owner.token, false],
      ['no-such-token', false],
      [ws.tokens.owner, true],
    ] as const) {
      const check = checkToken(token, t.worlds, t.runtime.policy);
      expect(check.caller !== undefined, token).toBe(accepted);
      expect(t.runtime.authenticate(token) !== undefined, token).toBe(accepted);
      await request(t.app)
        .get('/2024-09/merchants')
        .set(t.bearer(token))
        .expect(accepted ? 200 : 401);
    }
    expect(() => checkToken(demo.owner.token, t.worlds, t.runtime.policy).refuse()).toThrow(/default world/);
  });

  it("When local, then the default world's demo token is accepted by both", async () => {
    const t = await testApp();
    expect(checkToken(demo.owner.token, t.worlds, t.runtime.policy).caller?.world).toBe(t.worlds.defaultWorld);
    expect(t.runtime.authenticate(demo.owner.token)?.world).toBe(t.worlds.defaultWorld);
  });
});
