// The users a CI job made with POST /_sandbox/users have a way into its world after the run is loaded: a bundle
// carries them and no token, so the load issues each a token (listed in the --load banner), and
// POST /_sandbox/users/{user}/tokens issues one for any user of a world.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { testApp } from '../helpers/app.js';
import { ADMIN, bearer, hostedApp, newWorkspace } from '../hosted/support.js';
import { builtEntry } from '../helpers/built-entries.js';

const started: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

/** A CI job's run: in a workspace, a user made with POST /_sandbox/users creates a merchant of their own; exported. */
async function runWithAUser(): Promise<{ bundle: string; user: { id: string; email: string }; merchant: string }> {
  const source = await startSandbox({ logLevel: 'silent' });
  started.push(source);
  const ws = source.createWorkspace();
  const json = { 'Content-Type': 'application/json' };
  const made = await fetch(`${source.url}/_sandbox/users`, {
    method: 'POST',
    headers: { ...bearer(ws.tokens.owner), ...json },
    body: JSON.stringify({ name: 'Ada Integrator', email: 'ada@example.com' }),
  });
  const { user, token } = ((await made.json()) as { data: { user: { id: string; email: string }; token: string } }).data;
  const created = await fetch(`${source.url}/2024-09/merchants`, {
    method: 'POST',
    headers: { ...bearer(token), ...json },
    body: JSON.stringify({ name: 'Ada Ltd' }),
  });
  expect(created.status).toBe(201);
  const merchant = ((await created.json()) as { data: { id: string } }).data.id;
  const bundle = await (await fetch(`${source.url}/_sandbox/workspaces/${ws.id}/export`, { headers: bearer(ws.tokens.owner) })).text();
  expect(bundle).not.toContain(token.slice(token.indexOf('.') + 1));
  return { bundle, user, merchant };
}

describe('the users a loaded run made', () => {
  it('When the run is loaded, then each user it made gets a token that acts as them on the loaded world', async () => {
    const { bundle, user, merchant } = await runWithAUser();
    const loaded = await startSandbox({ logLevel: 'silent', load: JSON.parse(bundle) });
    started.push(loaded);
    expect(loaded.loadedUsers).toEqual([{ id: user.id, name: 'Ada Integrator', email: 'ada@example.com', token: expect.stringMatching(/^sbx_/) }]);
    const token = loaded.loadedUsers![0]!.token;
    const me = await fetch(`${loaded.url}/2024-09/users/current`, { headers: bearer(token) });
    expect(((await me.json()) as { data: { id: string } }).data.id).toBe(user.id);
    // Her merchant is hers: the demo owner is no member of it, she is.
    expect((await fetch(`${loaded.url}/2024-09/merchants/${merchant}`, { headers: bearer(token) })).status).toBe(200);
    expect((await fetch(`${loaded.url}/2024-09/merchants/${merchant}`, { headers: bearer(loaded.tokens.owner) })).status).toBe(403);
  });

  it('When POST /_sandbox/users/{user}/tokens names a user of the loaded world, then 201 with a new token acting as them; the earlier one keeps working', async () => {
    const { bundle, user, merchant } = await runWithAUser();
    const loaded = await startSandbox({ logLevel: 'silent', load: JSON.parse(bundle) });
    started.push(loaded);
    const res = await fetch(`${loaded.url}/_sandbox/users/${user.id}/tokens`, { method: 'POST', headers: bearer(loaded.tokens.owner) });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { user: { id: string; email: string }; token: string } };
    expect(data.user).toMatchObject({ id: user.id, email: 'ada@example.com' });
    expect(data.token).not.toBe(loaded.loadedUsers![0]!.token);
    for (const token of [data.token, loaded.loadedUsers![0]!.token])
      expect((await fetch(`${loaded.url}/2024-09/merchants/${merchant}`, { headers: bearer(token) })).status).toBe(200);
  });

  it("When the exporting run's workspace token is sent to the loaded sandbox, then its 401 names the run users' tokens too", async () => {
    const { bundle } = await runWithAUser();
    const loaded = await startSandbox({ logLevel: 'silent', load: JSON.parse(bundle) });
    started.push(loaded);
    const res = await fetch(`${loaded.url}/2024-09/merchants`, { headers: bearer('ws_3f9a1c0b7d2e.q7Vd0aZk3Xr9LmP2sT8wYc4N') });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toContain(
      'the tokens the start banner lists for the users the run made with POST /_sandbox/users (POST /_sandbox/users/{user}/tokens issues another)',
    );
  });

  it('When the CLI starts with --load run.json, then its banner lists each user the run made with a token that acts as them', async () => {
    const { bundle, user } = await runWithAUser();
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-load-users-'));
    const file = join(dir, 'run.json');
    writeFileSync(file, bundle);
    const child = spawn(process.execPath, [builtEntry('main'), '--load', file, '--port', '0'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const banner = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if (/demo tokens:/.test(output)) resolve(output);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
      const line = new RegExp(`  user of the run: Ada Integrator <ada@example\\.com> ${user.id}: (sbx_\\S+)`).exec(banner);
      expect(line, banner).not.toBeNull();
      const me = await fetch(`${url}/2024-09/users/current`, { headers: bearer(line![1]!) });
      expect(((await me.json()) as { data: { id: string } }).data.id).toBe(user.id);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('POST /_sandbox/users/{user}/tokens', () => {
  it('When it names a user of a workspace with its owner token, then the new token carries the workspace prefix and acts there', async () => {
    const t = await testApp();
    const ws = await newWorkspace(t.app);
    const res = await request(t.app).post('/_sandbox/users/22222222-2222-4222-8222-222222222222/tokens').set(bearer(ws.tokens.owner)).expect(201);
    expect(res.body.data.token).toMatch(new RegExp(`^ws_${ws.id}\\.sbx_`));
    const me = await request(t.app).get('/2024-09/users/current').set(bearer(res.body.data.token)).expect(200);
    expect(me.body.data.email).toBe('member@demo.example');
    expect(t.errors).toEqual([]);
  });

  it('When the user is unknown or not a UUID, then 404 (the record step, before any input check); a workspace name past 64 characters, 422; a token of the workspace other than its owner, 403', async () => {
    const t = await testApp();
    const ws = await newWorkspace(t.app);
    const unknown = await request(t.app).post('/_sandbox/users/99999999-9999-4999-8999-999999999999/tokens').set(bearer(ws.tokens.owner));
    expect([unknown.status, unknown.body.message]).toEqual([404, 'User not found.']);
    const malformed = await request(t.app).post('/_sandbox/users/nope/tokens').set(bearer(ws.tokens.owner));
    expect([malformed.status, malformed.body.message]).toEqual([404, 'User not found.']);
    const longName = await request(t.app).post(`/_sandbox/users/22222222-2222-4222-8222-222222222222/tokens?workspace=${'w'.repeat(65)}`);
    expect([longName.status, longName.body.message]).toEqual([422, 'The workspace field must not have more than 64 characters.']);
    await request(t.app).post('/_sandbox/users/22222222-2222-4222-8222-222222222222/tokens').set(bearer(ws.tokens.member)).expect(403);
    expect(t.errors).toEqual([]);
  });

  it("When a hosted workspace's owner names a user made in another workspace, then 404: a token is only ever issued in the caller's own world", async () => {
    const h = await hostedApp();
    const [mine, theirs] = [await newWorkspace(h.app), await newWorkspace(h.app)];
    const made = await request(h.app).post('/_sandbox/users').set(bearer(theirs.tokens.owner)).send({ name: 'Theirs' }).expect(201);
    await request(h.app).post(`/_sandbox/users/${made.body.data.user.id}/tokens`).set(bearer(mine.tokens.owner)).expect(404);
    await request(h.app).post(`/_sandbox/users/${made.body.data.user.id}/tokens?workspace=${theirs.id}`).set(bearer(mine.tokens.owner)).expect(403);
    const admin = await request(h.app).post(`/_sandbox/users/${made.body.data.user.id}/tokens?workspace=${theirs.id}`).set(bearer(ADMIN)).expect(201);
    expect(admin.body.data.token).toMatch(new RegExp(`^ws_${theirs.id}\\.`));
    expect(h.errors).toEqual([]);
  });
});
