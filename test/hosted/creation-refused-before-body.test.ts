// A creation the sandbox cannot take (MAX_WORKSPACES kept already, or memory past its budget) is refused before its
// body is read, as the per-address limit is: the order is route, caller (401/403/429), then the body. A bundle load
// at the limit read, parsed and checked up to BUNDLE_MAX_BYTES before its 429 (a malformed one answered 400).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { hostedApp, newWorkspace } from './support.js';

const load = (app: Parameters<typeof request>[0], body: string) => request(app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(body);

describe('a workspace creation the sandbox cannot take', () => {
  it('When MAX_WORKSPACES are kept, then a bundle load answers 429 with Retry-After before its body is read: a malformed or a wrong one alike', async () => {
    const t = await hostedApp({ maxWorkspaces: 1 });
    await newWorkspace(t.app);
    for (const body of ['{"format":', '{"format":"x"}']) {
      const res = await load(t.app, body);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 429,
        message: 'The sandbox already keeps 1 workspaces; delete one or wait for an idle one to expire.',
      });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(t.worlds.workspaceCount).toBe(1);
  });
});
