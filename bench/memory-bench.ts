// The memory section of `npm run bench` (issue 22's floods), on a sandbox started with a 256 MiB heap:
//  - the gzip-body flood: unauthenticated POSTs whose 1 KB gzip body inflates to 1 MiB of JSON;
//  - the upload flood: 5 MiB uploads, each into the newest workspace, with a workspace creation after each, so
//    the figure shows after how many uploads creation answers 503 (the memory guard) and what RSS was then.
// Each flood is bounded in count and in time, and runs against a process of its own. Figures: RSS before, peak
// (VmHWM) and after, in MB; answers by status; whether the process lived.
import { gzipSync } from 'node:zlib';
import { freePort, memoryOf, MERCHANT, OWNER_TOKEN, startProcess, type Running } from './servers.js';

const MiB = 2 ** 20;
const HEAP_MIB = 256;

export interface MemoryBenchOptions {
  smoke: boolean;
  log: (line: string) => void;
  note: (key: string, label: string, unit: string, value: number) => void;
}

/** The sandbox from its sources (as `npm start` runs it) in memory, with the heap the issue names. */
async function startSmallHeap(name: string): Promise<Running> {
  const port = await freePort();
  return startProcess({
    name,
    args: [`--max-old-space-size=${HEAP_MIB}`, '--import', 'tsx', 'src/main.ts'],
    env: { PORT: String(port), HOST: '127.0.0.1', STORE: 'memory', LOG_LEVEL: 'warn', MAX_WORKSPACES: '100000', WORKSPACE_CREATE_PER_MINUTE: '100000' },
    port,
    probe: '/2024-09/users/current',
    headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
    timeoutMs: 120_000,
  });
}

const count = (statuses: Map<string, number>, status: number | string) => statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
const summary = (statuses: Map<string, number>) => [...statuses].map(([status, n]) => `${n}x ${status}`).join(', ');

/** Sends `total` requests from `clients` concurrent clients, stopping at the deadline. */
async function flood(total: number, clients: number, deadline: number, send: () => Promise<number>, statuses: Map<string, number>): Promise<void> {
  let sent = 0;
  const client = async () => {
    while (sent < total && performance.now() < deadline) {
      sent++;
      count(statuses, await send().catch(() => 'connection error'));
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
}

async function gzipFlood(opts: MemoryBenchOptions): Promise<void> {
  const sandbox = await startSmallHeap('sandbox (gzip flood)');
  const pid = sandbox.child.pid!;
  const total = opts.smoke ? 20 : 200;
  try {
    const body = gzipSync(JSON.stringify({ merchant_id: MERCHANT, sku: 'GZ', title: 'x'.repeat(MiB - 64) }));
    const before = memoryOf(pid).rssMb;
    const statuses = new Map<string, number>();
    const send = async () => {
      const res = await fetch(`${sandbox.url}/2024-09/products`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body,
      });
      await res.arrayBuffer();
      return res.status;
    };
    await flood(total, 8, performance.now() + 60_000, send, statuses);
    const after = memoryOf(pid);
    const alive = sandbox.child.exitCode === null && sandbox.child.signalCode === null;
    opts.note('memory.gzip.before', 'gzip-body flood: RSS before', 'MB', before);
    opts.note('memory.gzip.peak', 'gzip-body flood: peak RSS', 'MB', after.peakMb);
    opts.note('memory.gzip.after', 'gzip-body flood: RSS after', 'MB', after.rssMb);
    opts.log(
      `  gzip-body flood (${total} unauthenticated POSTs of ${body.length} bytes inflating to 1 MiB, 8 clients, heap ${HEAP_MIB} MiB): ` +
        `RSS ${before.toFixed(0)} MB before, peak ${after.peakMb.toFixed(0)} MB, ${after.rssMb.toFixed(0)} MB after; answers ${summary(statuses)}; process ${alive ? 'alive' : 'DEAD'}`,
    );
  } finally {
    await sandbox.stop();
  }
}

async function uploadFlood(opts: MemoryBenchOptions): Promise<void> {
  const sandbox = await startSmallHeap('sandbox (upload flood)');
  const pid = sandbox.child.pid!;
  const total = opts.smoke ? 8 : 80;
  const deadline = performance.now() + 120_000;
  try {
    // A PNG as the upload rules check it (its signature), just under the 5 MiB a file may have.
    const image = new Uint8Array(5 * MiB - 1024);
    image.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const before = memoryOf(pid).rssMb;
    const create = async () => {
      const res = await fetch(`${sandbox.url}/_sandbox/workspaces`, { method: 'POST' });
      const body = res.status === 201 ? ((await res.json()) as { data: { tokens: { owner: string } } }) : (await res.arrayBuffer(), undefined);
      return { status: res.status, token: body?.data.tokens.owner };
    };
    let token = (await create()).token!;
    const uploads = new Map<string, number>();
    const creations = new Map<string, number>();
    let refusedAfter: number | undefined;
    let rssAtRefusal = NaN;
    for (let i = 1; i <= total && performance.now() < deadline; i++) {
      const headers = { Authorization: `Bearer ${token}` };
      const list = (await (await fetch(`${sandbox.url}/2024-09/products?merchant_id=${MERCHANT}&per_page=1`, { headers })).json()) as {
        data: { id: string }[];
      };
      const form = new FormData();
      form.append('file', new Blob([image], { type: 'image/png' }), 'flood.png');
      const res = await fetch(`${sandbox.url}/2024-09/products/${list.data[0]!.id}/images`, { method: 'POST', headers, body: form });
      await res.arrayBuffer();
      count(uploads, res.status);
      const created = await create();
      count(creations, created.status);
      if (created.token) token = created.token;
      else if (refusedAfter === undefined) [refusedAfter, rssAtRefusal] = [i, memoryOf(pid).rssMb];
    }
    const after = memoryOf(pid);
    const alive = sandbox.child.exitCode === null && sandbox.child.signalCode === null;
    opts.note('memory.upload.before', 'upload flood: RSS before', 'MB', before);
    opts.note('memory.upload.peak', 'upload flood: peak RSS', 'MB', after.peakMb);
    opts.note('memory.upload.after', 'upload flood: RSS after', 'MB', after.rssMb);
    if (refusedAfter !== undefined) opts.note('memory.upload.refused-after', 'upload flood: uploads before creation answered 503', 'uploads', refusedAfter);
    opts.log(
      `  upload flood (${total} uploads of 5 MiB, a creation after each, heap ${HEAP_MIB} MiB): RSS ${before.toFixed(0)} MB before, ` +
        `peak ${after.peakMb.toFixed(0)} MB, ${after.rssMb.toFixed(0)} MB after; uploads ${summary(uploads)}; creations ${summary(creations)}; ` +
        (refusedAfter === undefined ? 'creation never refused' : `first refusal after ${refusedAfter} uploads at RSS ${rssAtRefusal.toFixed(0)} MB`) +
        `; process ${alive ? 'alive' : 'DEAD'}`,
    );
  } finally {
    await sandbox.stop();
  }
}

/** Both floods, one after the other, each on a fresh process. */
export async function benchMemory(opts: MemoryBenchOptions): Promise<void> {
  opts.log(`memory under floods (heap ${HEAP_MIB} MiB):`);
  await gzipFlood(opts);
  await uploadFlood(opts);
}
