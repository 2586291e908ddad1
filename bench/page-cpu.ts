// The server's CPU per 1,000 products pages (the replayed read of `npm run bench`'s single-page run), this build
// against earlier commits, in one run: every server up at once (each on its own fresh store, its validators
// compiled), then bursts of the page to each in turn, the order alternating, so the machine's drift is shared. The
// figure is the server process's own CPU time (user + system, from /proc/<pid>/stat, bench/servers.ts), which the other processes of
// a shared machine change far less than they change req/s. Linux only; loopback only; every burst is bounded.
//
//   node --import tsx bench/page-cpu.ts [--bursts 10] [--seconds 1] [commit...]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareBaseline } from './baseline-commit.js';
import { WARMED_UP_LINE } from './first-calls.js';
import { drive, loadToolName } from './load-tool.js';
import { cpuMsOf, MERCHANT, OWNER_TOKEN, ROOT, startSandbox, type Running } from './servers.js';

const { values, positionals } = parseArgs({
  options: { bursts: { type: 'string', default: '10' }, seconds: { type: 'string', default: '1' } },
  allowPositionals: true,
});
const bursts = Number(values.bursts);
const seconds = Number(values.seconds);
const PAGE_PATH = `/2024-09/products?merchant_id=${MERCHANT}&per_page=25`;
const AUTH = { Authorization: `Bearer ${OWNER_TOKEN}` };
const tool = loadToolName();

interface Contender {
  name: string;
  server: Running;
  cpuMs: number;
  pages: number;
  /** CPU per 1,000 pages of each burst. */
  perBurst: number[];
}

const dir = mkdtempSync(join(tmpdir(), 'page-cpu-'));
const contenders: Contender[] = [];
try {
  const builds = [{ name: 'this build', root: ROOT }];
  for (const commit of positionals) {
    const built = prepareBaseline(commit);
    if ('skipped' in built) throw new Error(built.skipped);
    builds.push({ name: `@${built.commit}`, root: built.root });
  }
  for (const [i, build] of builds.entries()) {
    const server = await startSandbox(join(dir, `store-${i}.json`), {}, build.root, build.name, [], true);
    contenders.push({ name: build.name, server, cpuMs: 0, pages: 0, perBurst: [] });
  }
  // Builds that print when their validators are compiled are measured after it; the others once they answer.
  for (const c of contenders) await c.server.printed?.(WARMED_UP_LINE, 60_000);
  for (const c of contenders) await drive({ url: c.server.url + PAGE_PATH, method: 'GET', headers: AUTH, connections: 32, seconds: 1 }, tool);
  for (let burst = 0; burst < bursts; burst++) {
    for (const c of burst % 2 ? [...contenders].reverse() : contenders) {
      const pid = c.server.child.pid!;
      const before = cpuMsOf(pid);
      const r = await drive({ url: c.server.url + PAGE_PATH, method: 'GET', headers: AUTH, connections: 32, seconds }, tool);
      const used = cpuMsOf(pid) - before;
      if (r.errors > 0) throw new Error(`${c.name}: ${r.errors} of ${r.requests} requests failed`);
      c.cpuMs += used;
      c.pages += r.requests;
      c.perBurst.push(used / (r.requests / 1000));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`server CPU per 1,000 products pages (${bursts} bursts of ${seconds} s each, ${tool}, 32 connections):`);
  for (const c of contenders) {
    const ratio =
      c === contenders[0] ? '' : `, this build over it per burst (median) ${median(contenders[0]!.perBurst.map((v, i) => v / c.perBurst[i]!)).toFixed(2)}`;
    console.log(`  ${c.name.padEnd(14)} ${(c.cpuMs / (c.pages / 1000)).toFixed(1)} ms, ${c.pages} pages${ratio}`);
  }
} finally {
  for (const c of contenders) await c.server.stop();
  rmSync(dir, { recursive: true, force: true });
}
