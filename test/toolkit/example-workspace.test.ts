// The workspace the contract's delete example names (`example`): a local sandbox keeps it so that the example runs
// as written on a fresh sandbox, and a reset of the default world brings it back for the next run; hosted mode has
// none.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';
import { ADMIN, bearer, hostedApp, newWorkspace } from '../hosted/support.js';

describe('the example workspace of a local sandbox', () => {
  it('When DELETE /_sandbox/workspaces/example is sent on a fresh sandbox, then 204, and a second time 404', async () => {
    const t = await testApp();
    await request(t.app).delete('/_sandbox/workspaces/example').set(t.auth('owner')).expect(204);
    await request(t.app).delete('/_sandbox/workspaces/example').set(t.auth('owner')).expect(404);
    expect(t.errors).toEqual([]);
  });

  it('When it was deleted and the default world is reset, then it is there again (a second run of the examples succeeds)', async () => {
    const t = await testApp();
    for (const reset of ['/_sandbox/reset', '/_sandbox/workspaces/default/reset']) {
      await request(t.app).delete('/_sandbox/workspaces/example').set(t.auth('owner')).expect(204);
      await request(t.app).post(reset).set(t.auth('owner')).expect(204);
      await request(t.app).delete('/_sandbox/workspaces/example').set(t.auth('owner')).expect(204);
      await request(t.app).post(reset).set(t.auth('owner')).expect(204);
    }
  });

  it('When it was deleted and another workspace is reset, then it stays deleted', async () => {
    const t = await testApp();
    const ws = await newWorkspace(t.app);
    await request(t.app).delete('/_sandbox/workspaces/example').set(t.auth('owner')).expect(204);
    await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).set(bearer(ws.tokens.owner)).expect(204);
    await request(t.app).post('/_sandbox/workspaces/example/reset').set(t.auth('owner')).expect(404);
  });

  it('When it is a world, then it is an isolated seeded world like any workspace, and the default world is untouched by it', async () => {
    const t = await testApp();
    await request(t.app).post('/_sandbox/clock/advance?workspace=example').set(t.auth('owner')).send({ hours: 1 }).expect(200);
    const clock = await request(t.app).get('/_sandbox/clock?workspace=example').set(t.auth('owner')).expect(200);
    const own = await request(t.app).get('/_sandbox/clock').set(t.auth('owner')).expect(200);
    expect(clock.body.data).toMatchObject({ workspace: 'example', offset_ms: 3_600_000 });
    expect(own.body.data).toMatchObject({ workspace: 'default', offset_ms: 0 });
  });

  it('When the workspace limit is reached, then the example workspace is not one of them: as many are created as the limit says', async () => {
    const t = await testApp({ maxWorkspaces: 1 });
    await request(t.app).post('/_sandbox/workspaces/example/reset').set(t.auth('owner')).expect(204);
    await request(t.app).post('/_sandbox/workspaces').expect(201);
    await request(t.app).post('/_sandbox/workspaces').expect(429);
  });
});

describe('hosted mode', () => {
  it('When anyone names the example workspace, then it does not exist: 404 to the admin, 403 to a workspace token (its own workspace only), and nothing is created', async () => {
    const h = await hostedApp();
    const ws = await newWorkspace(h.app);
    await request(h.app).delete('/_sandbox/workspaces/example').set(bearer(ws.tokens.owner)).expect(403);
    await request(h.app).delete('/_sandbox/workspaces/example').set(bearer(ADMIN)).expect(404);
    await request(h.app).post('/_sandbox/workspaces/example/reset').set(bearer(ADMIN)).expect(404);
    expect(h.worlds.isLive('example')).toBe(false);
    expect(h.errors).toEqual([]);
  });
});
