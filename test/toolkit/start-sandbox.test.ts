import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/index.js';

let sandbox: RunningSandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(() => sandbox.close());

const get = (path: string, token?: string) => fetch(`${sandbox.url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

describe('startSandbox()', () => {
  it('When started with no options, then it serves real HTTP on 127.0.0.1 and a free port, in memory', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.config.store).toBe('memory');
    const health = await get('/_sandbox/health');
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'memory' });
  });

  it('When its tokens are used, then they are the demo users; reset() brings the seeded world back', async () => {
    expect(sandbox.tokens.owner).toBe('demo-owner-token');
    const merchants = await (await get('/2024-09/merchants', sandbox.tokens.owner)).json();
    const id = merchants.data[0].id;
    await fetch(`${sandbox.url}/2024-09/merchants/${id}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${sandbox.tokens.owner}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Changed' }),
    });
    expect((await (await get(`/2024-09/merchants/${id}`, sandbox.tokens.owner)).json()).data.name).toBe('Changed');
    await sandbox.reset();
    expect((await (await get(`/2024-09/merchants/${id}`, sandbox.tokens.owner)).json()).data.name).toBe('Demo Outfitters');
  });

  it('When a workspace is created programmatically, then its tokens work over HTTP', async () => {
    const ws = sandbox.createWorkspace();
    expect((await get('/2024-09/users/current', ws.tokens.member)).status).toBe(200);
  });

  it('When close() is called twice, then it resolves both times and the port stops answering', async () => {
    const other = await startSandbox({ logLevel: 'silent' });
    await other.close();
    await other.close();
    await expect(fetch(`${other.url}/_sandbox/health`)).rejects.toThrow();
  });
});
