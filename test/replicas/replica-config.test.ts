// REPLICA_ID and the nginx configuration: REPLICA_ID names the replica that holds a workspace inside the workspace's id, which is what nginx routes by.
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { nginxConfig } from '../../deploy/nginx/nginx-config.js';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions } from '../../src/config.js';
import { testApp } from '../helpers/app.js';

function configWith(env: NodeJS.ProcessEnv) {
  const parsed = parseArgs([], {});
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return configFromOptions(parsed.options, env);
}

describe('REPLICA_ID', () => {
  it('When REPLICA_ID is 1 to 8 lowercase letters or digits, then the configuration carries it', () => {
    expect(configWith({ REPLICA_ID: 'r1' })).toEqual({ config: expect.objectContaining({ replicaId: 'r1' }), errors: [] });
    expect(configWith({ REPLICA_ID: 'eu2west0' }).config.replicaId).toBe('eu2west0');
    expect(configWith({}).config.replicaId).toBeUndefined();
  });

  it.each(['R1', 'r-1', 'r_1', 'toolongid', 'r1.'])('When REPLICA_ID is %j, then the configuration names it as an error', (value) => {
    const { config, errors } = configWith({ REPLICA_ID: value });
    expect(config.replicaId).toBeUndefined();
    expect(errors).toEqual([`REPLICA_ID must be 1 to 8 lowercase letters or digits, got '${value}'`]);
  });

  it('When a replica creates a workspace, then its id starts with the replica and its tokens and image URLs work', async () => {
    const t = await testApp({ replicaId: 'r7' });
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };
    expect(ws.id).toMatch(/^r7-[0-9a-f]{12}$/);
    expect(ws.tokens.owner.startsWith(`ws_${ws.id}.`)).toBe(true);
    await request(t.app).get('/2024-09/merchants').set('Authorization', `Bearer ${ws.tokens.owner}`).expect(200);
    await request(t.app).get(`/_sandbox/requests?workspace=${ws.id}`).set('Authorization', `Bearer ${ws.tokens.owner}`).expect(200);
    await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).set('Authorization', `Bearer ${ws.tokens.owner}`).expect(204);
    expect(t.errors).toEqual([]);
  });

  it('When a workspace opens its consent page, then the form posts to a URL carrying the state, which nginx routes by', async () => {
    const t = await testApp({ replicaId: 'r3' });
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };
    const auth = await request(t.app)
      .get('/2024-09/channels/retailer/cccccccc-cccc-4ccc-8ccc-ccccccccc001/get-auth-url')
      .set('Authorization', `Bearer ${ws.tokens.owner}`)
      .expect(200);
    const url = new URL(auth.body.url as string);
    const state = url.searchParams.get('state')!;
    expect(state.startsWith(`ws_${ws.id}.`)).toBe(true);
    const page = await request(t.app)
      .get(url.pathname + url.search)
      .expect(200);
    expect(page.text).toContain(`action="/_retailer/authorize?state=${encodeURIComponent(state)}"`);
  });

  it('When no REPLICA_ID is set, then workspace ids stay plain hex', async () => {
    const t = await testApp();
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string };
    expect(ws.id).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('nginx configuration', () => {
  it("When the compose file's replicas are rendered, then the checked-in deploy/nginx/sandbox.conf is that output", () => {
    const rendered = nginxConfig({
      listen: '80',
      user: 'nginx',
      replicas: [
        { id: 'r1', address: 'sandbox-r1:4010' },
        { id: 'r2', address: 'sandbox-r2:4010' },
      ],
    });
    expect(readFileSync(new URL('../../deploy/nginx/sandbox.conf', import.meta.url), 'utf8')).toBe(rendered);
  });

  it('When the hosting guide names the nginx configuration and the compose file, then it links the checked-in files instead of a copy that could drift', () => {
    const hosting = readFileSync(new URL('../../docs/hosting.md', import.meta.url), 'utf8');
    // docs/ ships in the package and deploy/ does not, so the guide links the repository's own copy.
    const repository = 'https://github.com/commerce-operations/sandbox/blob/main/';
    expect(hosting).toContain(`](${repository}deploy/nginx/sandbox.conf)`);
    expect(hosting).toContain(`](${repository}deploy/compose.yaml)`);
    expect(hosting).not.toMatch(/^```nginx/m);
    expect(hosting).not.toContain('upstream sandbox_r1');
  });

  it('When a replica id, an address or a duplicate is bad, then no configuration is rendered', () => {
    const render = (replicas: { id: string; address: string }[]) => () => nginxConfig({ listen: '80', replicas });
    expect(render([])).toThrow('at least one replica');
    expect(render([{ id: 'R1', address: 'a:1' }])).toThrow('lowercase');
    expect(render([{ id: 'r1', address: 'a b;' }])).toThrow('host:port');
    expect(
      render([
        { id: 'r1', address: 'a:1' },
        { id: 'r1', address: 'b:1' },
      ]),
    ).toThrow('differ');
  });
});
