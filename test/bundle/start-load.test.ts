// startSandbox({ load }): the default world starts as a bundle's world, or the start is refused naming why.
import { afterEach, describe, expect, it } from 'vitest';
import { BundleRefused } from '../../src/sandbox/bundle-file.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';

const started: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

async function exportedRun(): Promise<{ bundle: Record<string, unknown>; merchant: string }> {
  const source = await startSandbox({ logLevel: 'silent' });
  started.push(source);
  const ws = source.createWorkspace();
  const auth = { Authorization: `Bearer ${ws.tokens.owner}`, 'Content-Type': 'application/json' };
  const made = await fetch(`${source.url}/2024-09/merchants`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Loaded Ltd' }) });
  await fetch(`${source.url}/_sandbox/clock/advance`, { method: 'POST', headers: auth, body: JSON.stringify({ days: 3 }) });
  const merchant = ((await made.json()) as { data: { id: string } }).data.id;
  const bundle = (await (await fetch(`${source.url}/_sandbox/workspaces/${ws.id}/export`, { headers: auth })).json()) as Record<string, unknown>;
  return { bundle, merchant };
}

describe('startSandbox({ load })', () => {
  it('When a parsed bundle is given, then the default world has its records and clock, with the demo tokens', async () => {
    const { bundle, merchant } = await exportedRun();
    const loaded = await startSandbox({ logLevel: 'silent', load: bundle });
    started.push(loaded);
    const res = await fetch(`${loaded.url}/2024-09/merchants/${merchant}`, { headers: { Authorization: `Bearer ${loaded.tokens.owner}` } });
    expect(((await res.json()) as { data: { name: string } }).data.name).toBe('Loaded Ltd');
    expect(loaded.worlds.defaultWorld.clock.offset).toBe(3 * 86_400_000);
    expect(loaded.config.store).toBe('memory');
  });

  it("When the exporting run's workspace token is sent to the loaded sandbox, then its 401 says the demo tokens act on the loaded world", async () => {
    const { bundle } = await exportedRun();
    const loaded = await startSandbox({ logLevel: 'silent', load: bundle });
    started.push(loaded);
    const res = await fetch(`${loaded.url}/2024-09/merchants`, { headers: { Authorization: 'Bearer ws_3f9a1c0b7d2e.q7Vd0aZk3Xr9LmP2sT8wYc4N' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(
      /loaded workspace bundle in its default world.*demo tokens act on the loaded world \(demo-owner-token/,
    );
  });

  it('When the bundle cannot be loaded whole, then the start rejects with a BundleRefused naming each problem', async () => {
    const { bundle } = await exportedRun();
    const broken = structuredClone(bundle) as { changes: Record<string, { added: Record<string, unknown>[] }> };
    broken.changes.merchants!.added[0]!.name = 7;
    const error = await startSandbox({ logLevel: 'silent', load: broken }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleRefused);
    expect((error as BundleRefused).lines).toEqual([
      'the bundle: A record of the bundle breaks the contract; nothing was loaded.',
      '  changes.merchants.added.0.name: The name field must be string.',
    ]);
  });
});
