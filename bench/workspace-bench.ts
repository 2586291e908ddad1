// The workspace figures of `npm run bench` (issue 13 item 5), each next to its target:
//  - memory: a probe process (--expose-gc, three forced GCs before each reading) creates untouched workspaces
//    in-process and reads RSS and heapUsed+external: the cost of one (over 1,000) and the RSS at 10,000;
//  - creation through HTTP: its p99 one at a time (after a warm-up: the first creation builds the seeded base),
//    next to the p99 of as many health requests on the same server (the floor any request sees on this machine,
//    so a loaded machine shows as such), and, with 4 clients creating, how long a health request sent every 10 ms
//    waits (its latency minus its median latency on an idle server). Latencies are the client's: Node's fetch
//    keeps each connection alive, so a client loop reuses one connection and no sample pays a TCP handshake;
//  - the products page through 50 workspaces (wrk rotating their owner tokens) against the default world's.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { drive, type LoadSpec, type LoadToolName } from './load-tool.js';
import { MERCHANT, OWNER_TOKEN, ROOT, startSandbox, type Running } from './servers.js';

export const WORKSPACE_TARGETS = { untouchedKiB: 64, rssAtTenThousandMiB: 1536, createP99Ms: 2, waitMs: 5, pageRatio: 0.9 };

/** One line of the target table. */
export interface Check {
  target: string;
  measured: string;
  ok: boolean;
  reference?: true;
}

interface Options {
  smoke: boolean;
  rounds: number;
  pageSeconds: number;
  connections: number;
  tool: LoadToolName;
  dataFile: string;
  log: (line: string) => void;
  note: (key: string, label: string, unit: string, value: number) => void;
}

interface Probe {
  workspaces: number;
  rssPerWorkspaceKiB: number;
  heapPerWorkspaceKiB: number;
  rssAtTotalMiB: number;
  createP50Ms: number;
  createP99Ms: number;
}

const PAGE_PATH = `/2024-09/products?merchant_id=${MERCHANT}&per_page=25`;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; res: Response }> {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { ms: performance.now() - started, res };
}

function probeMemory(workspaces: number): Probe {
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/workspace-probe.ts', String(workspaces)], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the workspace probe failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Probe;
}

/** The latency of `count` health requests one at a time: the floor of any request on this server and machine. */
async function healthLatencies(sandbox: Running, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push((await timed(`${sandbox.url}/_sandbox/health`)).ms);
  return times;
}

/** Creates `count` workspaces with `clients` at once, timing each. */
async function createMany(sandbox: Running, count: number, clients: number) {
  const creations: number[] = [];
  const owners: string[] = [];
  let failed = 0;
  let remaining = count;
  const creator = async () => {
    while (remaining-- > 0) {
      const started = performance.now();
      const res = await fetch(`${sandbox.url}/_sandbox/workspaces`, { method: 'POST' });
      const body = (await res.json()) as { data?: { tokens: { owner: string } } };
      creations.push(performance.now() - started);
      if (res.status === 201 && body.data) owners.push(body.data.tokens.owner);
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: clients }, creator));
  return { creations, owners, failed };
}

/** How long a health request sent every 10 ms waits (beyond its idle median) while `clients` create workspaces. */
async function waitsBehindCreations(sandbox: Running, count: number, clients: number) {
  const idle: number[] = [];
  for (let i = 0; i < 50; i++) idle.push((await timed(`${sandbox.url}/_sandbox/health`)).ms);
  const during: number[] = [];
  let flooding = true;
  const probing = (async () => {
    while (flooding) {
      during.push((await timed(`${sandbox.url}/_sandbox/health`)).ms);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const flood = await createMany(sandbox, count, clients);
  flooding = false;
  await probing;
  const idleMedian = percentile(idle, 0.5);
  return { ...flood, idleMedian, waits: during.map((ms) => Math.max(0, ms - idleMedian)) };
}

export async function benchWorkspaces(o: Options): Promise<void> {
  const total = o.smoke ? 1000 : 10_000;
  o.log(`workspaces: memory probe, ${total.toLocaleString('en-US')} untouched workspaces in one process (--expose-gc)...`);
  const probe = probeMemory(total);
  o.note('ws.kib', 'untouched workspace, RSS (forced GC, over 1,000)', 'KiB', probe.rssPerWorkspaceKiB);
  o.note('ws.heapkib', 'untouched workspace, heapUsed+external (forced GC, over 1,000)', 'KiB', probe.heapPerWorkspaceKiB);
  o.note('ws.rss', `RSS with ${total.toLocaleString('en-US')} workspaces`, 'MiB', probe.rssAtTotalMiB);
  o.note('ws.inproc.p99', 'createWorkspace() in-process p99', 'ms', probe.createP99Ms);
  o.log(
    `  ${probe.rssPerWorkspaceKiB.toFixed(1)} KiB RSS, ${probe.heapPerWorkspaceKiB.toFixed(1)} KiB heap+external per workspace; ` +
      `RSS ${probe.rssAtTotalMiB.toFixed(0)} MiB at ${total.toLocaleString('en-US')}; in-process creation p99 ${probe.createP99Ms.toFixed(3)} ms`,
  );

  const sandbox = await startSandbox(o.dataFile, { MAX_WORKSPACES: '100000' });
  try {
    // The first creation builds the frozen seeded base (once per process, most of a second): not what is measured.
    const warm = await createMany(sandbox, 20, 1);
    const sequential = await createMany(sandbox, o.smoke ? 100 : 2000, 1);
    const floor = await healthLatencies(sandbox, sequential.creations.length);
    const flood = await waitsBehindCreations(sandbox, o.smoke ? 100 : 3000, 4);
    const failed = warm.failed + sequential.failed + flood.failed;
    if (failed > 0) o.log(`  warning: ${failed} creations failed`);
    const createP99 = percentile(sequential.creations, 0.99);
    const waitMax = Math.max(...flood.waits);
    o.note('ws.create.p99', 'workspace creation over HTTP p99 (one client)', 'ms', createP99);
    o.note('ws.health.p99', 'health request over HTTP p99 (one client, same server): the floor', 'ms', percentile(floor, 0.99));
    o.note('ws.wait.max', 'health request wait behind creations (4 clients), max', 'ms', waitMax);
    o.note('ws.wait.p99', 'health request wait behind creations (4 clients), p99', 'ms', percentile(flood.waits, 0.99));
    o.log(
      `  ${sequential.creations.length} creations over HTTP one at a time: p50 ${percentile(sequential.creations, 0.5).toFixed(2)} ms, p99 ${createP99.toFixed(2)} ms ` +
        `(as many health requests: p50 ${percentile(floor, 0.5).toFixed(2)} ms, p99 ${percentile(floor, 0.99).toFixed(2)} ms); ` +
        `${flood.creations.length} more by 4 clients, while ${flood.waits.length} health requests waited at most ${waitMax.toFixed(2)} ms (idle median ${flood.idleMedian.toFixed(2)} ms)`,
    );

    const tokens = sequential.owners.slice(0, 50);
    const pages: { key: string; label: string; spec: Pick<LoadSpec, 'headers' | 'rotate'> }[] = [
      // Both go through wrk's per-request Lua hook, so the client costs the same on both sides.
      { key: 'default', label: 'the default world', spec: { headers: {}, rotate: { header: 'Authorization', values: [`Bearer ${OWNER_TOKEN}`] } } },
      // One workspace separates the cost of reading through a view from that of 50 worlds' distinct answers.
      { key: 'one', label: 'one workspace', spec: { headers: {}, rotate: { header: 'Authorization', values: [`Bearer ${tokens[0]}`] } } },
      { key: 'workspaces', label: '50 workspaces', spec: { headers: {}, rotate: { header: 'Authorization', values: tokens.map((t) => `Bearer ${t}`) } } },
    ];
    if (!o.smoke) for (const p of pages) await drive({ url: sandbox.url + PAGE_PATH, method: 'GET', connections: o.connections, seconds: 1, ...p.spec }, o.tool);
    for (let round = 1; round <= o.rounds; round++) {
      for (const p of pages.map((_, i) => pages[(i + round - 1) % pages.length])) {
        const r = await drive({ url: sandbox.url + PAGE_PATH, method: 'GET', connections: o.connections, seconds: o.pageSeconds, ...p.spec }, o.tool);
        if (r.errors > 0) o.log(`  warning: products page through ${p.label}: ${r.errors} of ${r.requests} requests failed`);
        o.note(`ws.page.${p.key}`, `products page through ${p.label}`, 'req/s', r.requestsPerSecond);
        o.log(`  round ${round}: products page through ${p.label.padEnd(18)} ${Math.round(r.requestsPerSecond)} req/s  p99 ${r.p99Ms.toFixed(2)} ms`);
      }
    }
  } finally {
    await sandbox.stop();
  }
}

/** The target lines, from the medians the caller computed. */
export function workspaceChecks(med: (key: string) => number, total: number): Check[] {
  const T = WORKSPACE_TARGETS;
  const ratio = med('ws.page.workspaces') / med('ws.page.default');
  return [
    { target: `untouched workspace <= ${T.untouchedKiB} KiB RSS (forced GC, over 1,000)`, measured: `${med('ws.kib').toFixed(1)} KiB (heap+external ${med('ws.heapkib').toFixed(1)} KiB)`, ok: med('ws.kib') <= T.untouchedKiB },
    { target: `${total.toLocaleString('en-US')} workspaces in one process < ${T.rssAtTenThousandMiB / 1024} GiB RSS`, measured: `${med('ws.rss').toFixed(0)} MiB`, ok: med('ws.rss') < T.rssAtTenThousandMiB },
    {
      target: `workspace creation p99 <= ${T.createP99Ms} ms (HTTP, one client)`,
      measured: `${med('ws.create.p99').toFixed(2)} ms (a health request's p99 in the same run ${med('ws.health.p99').toFixed(2)} ms; in-process ${med('ws.inproc.p99').toFixed(3)} ms)`,
      ok: med('ws.create.p99') <= T.createP99Ms,
    },
    { target: `no request waits > ${T.waitMs} ms behind creations (4 clients creating)`, measured: `max ${med('ws.wait.max').toFixed(2)} ms, p99 ${med('ws.wait.p99').toFixed(2)} ms`, ok: med('ws.wait.max') <= T.waitMs },
    {
      target: `products page through 50 workspaces >= ${T.pageRatio} x the default world`,
      measured: `${Math.round(med('ws.page.workspaces'))} vs ${Math.round(med('ws.page.default'))} req/s (ratio ${ratio.toFixed(2)}; one workspace ${Math.round(med('ws.page.one'))} req/s)`,
      ok: ratio >= T.pageRatio,
    },
  ];
}
