// 80 uploads of 5 MiB took a process with a 128 MiB heap from 85 to 525 MiB of RSS while workspace creation still
// answered 201: the budget counted V8's heap only, and uploads are Buffers outside it. And (issue 31) an upload into
// a live workspace was never refused, whatever the budget: 8 x 5 MiB into one workspace took RSS from 146 to 258 MB
// with a 128 MiB heap. Here uploads flood a process with a small heap, hosted: an upload into a live workspace, and a
// creation, must be refused (503) before the uploads alone pass the heap's size, and the process lives.
import { afterEach, describe, expect, it } from 'vitest';
import { bigPng, hostedEnv } from './hosted-process.js';
import { killStragglers, MERCHANT, PROCESS_TEST_TIMEOUT, startServer, stopServer, tempStore } from '../durability/server-process.js';

afterEach(() => killStragglers());

const MiB = 2 ** 20;
const HEAP_MIB = 128;
const UPLOADS = 80;
const IMAGE = bigPng();

interface Created {
  data: { tokens: { owner: string } };
}

interface UploadAnswer {
  status: number;
  retryAfter: string | null;
  message?: string;
}

async function upload(url: string, token: string): Promise<UploadAnswer> {
  const headers = { Authorization: `Bearer ${token}` };
  const list = (await (await fetch(`${url}/2024-09/products?merchant_id=${MERCHANT}&per_page=1`, { headers })).json()) as { data: { id: string }[] };
  const form = new FormData();
  form.append('file', new Blob([IMAGE], { type: 'image/png' }), 'flood.png');
  const res = await fetch(`${url}/2024-09/products/${list.data[0]!.id}/images`, { method: 'POST', headers, body: form });
  const body = (await res.json()) as { message?: string };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), message: body.message };
}

describe('a flood of uploads', () => {
  it(
    'When 5 MiB uploads flood a process with a 128 MiB heap, then an upload into a live workspace and a creation answer 503 with Retry-After before the uploads alone pass the heap size, the process lives and its workspaces keep answering',
    async () => {
      const store = tempStore();
      const server = await startServer(store.file, hostedEnv(HEAP_MIB, { MAX_WORKSPACES: '100000', WORKSPACE_MAX_UPLOAD_MB: '100' }));
      try {
        // Each upload goes to the newest workspace, and a creation after each upload asks whether there is room.
        let token = ((await (await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST' })).json()) as Created).data.tokens.owner;
        let uploaded = 0;
        let uploadRefused: UploadAnswer | undefined;
        let creationRefused: Response | undefined;
        while (!(uploadRefused && creationRefused) && uploaded < UPLOADS) {
          if (!uploadRefused) {
            const res = await upload(server.url, token);
            if (res.status === 201) uploaded++;
            else uploadRefused = res;
          }
          const res = await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST' });
          if (res.status === 201) token = ((await res.json()) as Created).data.tokens.owner;
          else creationRefused ??= res;
        }

        expect(uploadRefused?.status).toBe(503);
        expect(Number(uploadRefused!.retryAfter)).toBeGreaterThan(0);
        expect(uploadRefused!.message).toMatch(/memory/);
        expect(creationRefused?.status).toBe(503);
        expect(Number(creationRefused!.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await creationRefused!.json()) as { message: string }).message).toMatch(/memory/);
        expect(uploaded * IMAGE.length).toBeLessThan(HEAP_MIB * MiB);
        expect(server.child.exitCode).toBeNull();
        const read = await fetch(`${server.url}/2024-09/products?merchant_id=${MERCHANT}&per_page=1`, { headers: { Authorization: `Bearer ${token}` } });
        expect(read.status).toBe(200);
        expect((await fetch(`${server.url}/_sandbox/health`)).status).toBe(200);
        expect(await stopServer(server)).toBe(0);
      } finally {
        store.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );
});
