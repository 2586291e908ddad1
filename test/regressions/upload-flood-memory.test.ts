// 80 uploads of 5 MiB took a process with a 128 MiB heap from 85 to 525 MiB of RSS while workspace creation still
// answered 201: the budget counted V8's heap only, and uploads are Buffers outside it. Here uploads flood a process
// with a small heap: creation must refuse (503) before the uploads alone pass the heap's size, and the process lives.
import { afterEach, describe, expect, it } from 'vitest';
import { killStragglers, MERCHANT, PROCESS_TEST_TIMEOUT, startServer, stopServer, tempStore } from '../durability/server-process.js';

afterEach(() => killStragglers());

const MiB = 2 ** 20;
const HEAP_MIB = 128;
const UPLOADS = 80;
// A PNG as the upload rules check it (its signature), just under the 5 MiB a file may have.
const IMAGE = new Uint8Array(5 * MiB - 1024);
IMAGE.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Created {
  data: { tokens: { owner: string } };
}

async function upload(url: string, token: string): Promise<number> {
  const headers = { Authorization: `Bearer ${token}` };
  const list = (await (await fetch(`${url}/2024-09/products?merchant_id=${MERCHANT}&per_page=1`, { headers })).json()) as { data: { id: string }[] };
  const form = new FormData();
  form.append('file', new Blob([IMAGE], { type: 'image/png' }), 'flood.png');
  const res = await fetch(`${url}/2024-09/products/${list.data[0]!.id}/images`, { method: 'POST', headers, body: form });
  await res.arrayBuffer();
  return res.status;
}

describe('a flood of uploads', () => {
  it(
    'When 5 MiB uploads flood a process with a 128 MiB heap, then creating a workspace answers 503 before the uploads alone pass the heap size, the process lives and its workspaces keep working',
    async () => {
      const store = tempStore();
      const server = await startServer(store.file, {
        STORE: 'memory',
        NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}`,
        MAX_WORKSPACES: '100000',
        WORKSPACE_CREATE_PER_MINUTE: '100000',
      });
      try {
        // Each upload goes to the newest workspace, and a creation after each upload asks whether there is room.
        let token = ((await (await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST' })).json()) as Created).data.tokens.owner;
        let uploaded = 0;
        let refused: Response | undefined;
        while (!refused && uploaded < UPLOADS) {
          expect(await upload(server.url, token)).toBe(201);
          uploaded++;
          const res = await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST' });
          if (res.status === 201) token = ((await res.json()) as Created).data.tokens.owner;
          else refused = res;
        }

        expect(refused?.status).toBe(503);
        expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await refused!.json()) as { message: string }).message).toMatch(/memory/);
        expect(uploaded * IMAGE.length).toBeLessThan(HEAP_MIB * MiB);
        expect(server.child.exitCode).toBeNull();
        expect(await upload(server.url, token)).toBe(201);
        expect((await fetch(`${server.url}/_sandbox/health`)).status).toBe(200);
        expect(await stopServer(server)).toBe(0);
      } finally {
        store.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );
});
