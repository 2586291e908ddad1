// The process used to die of heap exhaustion at ~3,500 workspaces, losing every world. Here a flood of creations
// with the limits lifted runs against a process with a small heap: it must end in 503s, not in a crash.
import { afterEach, describe, expect, it } from 'vitest';
import { killStragglers, PROCESS_TEST_TIMEOUT, startServer, stopServer, tempStore } from '../durability/server-process.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

afterEach(() => killStragglers());

async function createWorkspace(url: string): Promise<Response> {
  return fetch(`${url}/_sandbox/workspaces`, { method: 'POST' });
}

async function productsOf(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/2024-09/products?merchant_id=${MERCHANT}`, { headers: { Authorization: `Bearer ${token}` } });
  return res.status;
}

async function usedOnce(url: string, token: string): Promise<void> {
  const res = await fetch(`${url}/2024-09/users/current`, { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
}

describe('a flood of workspace creations', () => {
  it(
    'When creations flood a process with a small heap and the limits lifted, each workspace used once, then it answers 503 with Retry-After, never crashes, and existing workspaces keep working',
    async () => {
      const store = tempStore();
      const server = await startServer(store.file, {
        STORE: 'memory',
        NODE_OPTIONS: '--max-old-space-size=96',
        MAX_WORKSPACES: '100000',
        WORKSPACE_CREATE_PER_MINUTE: '100000',
      });
      try {
        const first = (await (await createWorkspace(server.url)).json()) as { data: { tokens: { owner: string } } };
        const statuses = new Map<number, number>();
        let refused: Response | undefined;
        const worker = async () => {
          while (!refused) {
            const res = await createWorkspace(server.url);
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            // Each one used once: an untouched workspace costs a few hundred bytes (its world is made on first use),
            // so it is used workspaces that fill a heap.
            if (res.status === 201) await usedOnce(server.url, ((await res.json()) as { data: { tokens: { owner: string } } }).data.tokens.owner);
            else refused ??= res;
          }
        };
        await Promise.all(Array.from({ length: 8 }, worker));

        expect(refused!.status).toBe(503);
        expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await refused!.json()) as { message: string }).message).toMatch(/memory/);
        expect([...statuses.keys()].sort()).toEqual([201, 503]);
        expect(statuses.get(201)).toBeGreaterThan(1000);
        expect(server.child.exitCode).toBeNull();
        expect(await productsOf(server.url, first.data.tokens.owner)).toBe(200);
        expect((await fetch(`${server.url}/_sandbox/health`)).status).toBe(200);
        expect(await stopServer(server)).toBe(0);
      } finally {
        store.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );
});
