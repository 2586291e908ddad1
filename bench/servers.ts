// The servers the benchmark compares, each its own process on its own port: the built sandbox, json-server 1.0
// (installed by the benchmark itself, bench/json-server.ts) and a bare node:http server. Separate processes, so no server's GC or event loop is charged to another.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OWNER_TOKEN = 'demo-owner-token';
export const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

export interface Running {
  name: string;
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the probe's first 200. */
  readyMs: number;
  /** Resolves once the server has printed `text` on stdout (only when started with `watchStdout`); false after `timeoutMs`. */
  printed?(text: string, timeoutMs: number): Promise<boolean>;
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Whether something on `port` (loopback) accepts a TCP connection now; the connection is closed at once. A connect
 * that neither succeeds nor fails within `timeoutMs` (a listener whose backlog is full) counts as not yet, so the
 * caller's deadline still holds.
 */
export function accepts(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const answer = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(timeoutMs, () => answer(false));
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
  });
}

/**
 * Spawns `args` and polls `probe` on its port until it answers 200. The time to that answer is what a client waits
 * for after starting the server (for the sandbox: its first authenticated 200).
 *
 * Until the port accepts a connection, the poll only tries to connect: a refused connection costs the prober a
 * fraction of what a refused fetch costs, and on a machine with few cores the prober's CPU is taken from the start it
 * times, so polling with fetch alone would add to every start-up figure.
 */
export async function startProcess(opts: {
  name: string;
  /** The program to run; node by default. */
  command?: string;
  args: string[];
  env?: Record<string, string>;
  port: number;
  probe: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** The folder it runs in; this checkout by default. */
  cwd?: string;
  /** Keep what it prints on stdout, for `printed`. */
  watchStdout?: boolean;
}): Promise<Running> {
  const started = performance.now();
  const child = spawn(opts.command ?? process.execPath, opts.args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', opts.watchStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  const printed = async (text: string, timeoutMs: number) => {
    const until = performance.now() + timeoutMs;
    while (!stdout.includes(text) && performance.now() < until && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
    return stdout.includes(text);
  };
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${opts.port}`;
  const deadline = started + (opts.timeoutMs ?? 60_000);
  let listening = false;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${opts.name} exited (${child.exitCode}) before answering: ${stderr}`);
    listening ||= await accepts(opts.port);
    if (listening) {
      try {
        const res = await fetch(url + opts.probe, { headers: opts.headers });
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        // closed again (a server that restarts its listener): asked again on the next turn
      }
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} did not answer within ${opts.timeoutMs ?? 60_000} ms: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const readyMs = performance.now() - started;
  return {
    name: opts.name,
    child,
    url,
    readyMs,
    ...(opts.watchStdout && { printed }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * GETs `url` and parses its JSON. A GET is sent again, once, when the connection it went out on was closed under it:
 * undici reuses the connection a server's start-up probe left open, and a CI run met json-server closing that one
 * as the check's request went out ("other side closed", UND_ERR_SOCKET). Browsers retry an idempotent request so.
 */
export async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  try {
    return (await (await fetch(url, { headers })).json()) as T;
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return (await (await fetch(url, { headers })).json()) as T;
  }
}

/** Resident set size (and its peak) of a process, from /proc (Linux), in MB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: NaN, peakMb: NaN };
  }
}

/** CPU time a process has used (user + system), from /proc (Linux), in ms; NaN elsewhere. */
export function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * What a tree's Dockerfile runs: the package's bin over dist/src, or, in commits before the bin existed (the default
 * baseline among them), their bundled dist/server.js.
 */
function entryOf(root: string): string {
  return existsSync(join(root, 'bin', 'commerce-operations-sandbox.js')) ? 'bin/commerce-operations-sandbox.js' : 'dist/server.js';
}

/**
 * The built sandbox (its bin, as the Dockerfile runs it) on a data file; ready at its first authenticated 200.
 * `root` is another build of it (bench/baseline-commit.ts), named `name`.
 */
export async function startSandbox(
  dataFile: string,
  extraEnv: Record<string, string> = {},
  root = ROOT,
  name = 'sandbox',
  nodeArgs: string[] = [],
  watchStdout = false,
): Promise<Running> {
  const port = await freePort();
  return startProcess({
    name,
    watchStdout,
    cwd: root,
    args: [...nodeArgs, entryOf(root)],
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_FILE: dataFile, STORE: 'file', LOG_LEVEL: 'warn', ...extraEnv },
    port,
    probe: '/2024-09/users/current',
    headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
  });
}

/** json-server 1.0 (its bin.js, from installJsonServer) on a db.json. */
export async function startJsonServer(bin: string, dbFile: string): Promise<Running> {
  const port = await freePort();
  return startProcess({
    name: 'json-server 1.0',
    args: [bin, '--port', String(port), dbFile],
    port,
    probe: '/products',
  });
}

/**
 * A bare node:http server that answers every request 200 with a small JSON once it has read the body: what the
 * first-call harness measures with no server work at all (its own client and the machine), beside the servers it times.
 */
export async function startBareAnswerer(): Promise<Running> {
  const port = await freePort();
  const source = `require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end('{"data":{}}'); }); }).listen(${port}, '127.0.0.1');`;
  return startProcess({ name: 'bare node:http', args: ['-e', source], port, probe: '/2024-09/users/current' });
}

/** A bare node:http server that serializes the page per request (the floor of what Node can do). */
export async function startBareServer(pageFile: string): Promise<Running> {
  const port = await freePort();
  const source = `
    const http = require('node:http');
    const page = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(pageFile)}, 'utf8'));
    http.createServer((req, res) => {
      const body = JSON.stringify(page);
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    }).listen(${port}, '127.0.0.1');`;
  return startProcess({ name: 'bare node:http', args: ['-e', source], port, probe: '/' });
}

/**
 * A bare node:http server that answers every request with a constant JSON body of `bytes` bytes (201 to a POST):
 * the floor of a creation on this machine, through the same client. `nodeArgs` go before the script (a preload).
 */
export async function startBareAnswerServer(bytes: number, nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  return startProcess({ name: 'bare node:http', args: [...nodeArgs, '-e', bareAnswerScript(bytes)], env: { ...env, PORT: String(port) }, port, probe: '/' });
}

/** The `node -e` script of that server: it listens on PORT at 127.0.0.1 and exits 0 on SIGTERM. */
export function bareAnswerScript(bytes: number): string {
  return `
    const http = require('node:http');
    const body = JSON.stringify({ data: 'x'.repeat(${Math.max(0, bytes - 11)}) });
    http.createServer((req, res) => {
      req.resume();
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    }).listen(Number(process.env.PORT), '127.0.0.1');
    process.on('SIGTERM', () => process.exit(0));`;
}

/**
 * The floor of the stack for creates (bench/express-create-floor.mjs): Express 5 with a Map for a store, with or
 * without express-openapi-validator on the same contract.
 */
export async function startExpressCreateFloor(validated: boolean): Promise<Running> {
  const port = await freePort();
  return startProcess({
    name: validated ? 'Express 5 + validator, Map store' : 'Express 5, Map store',
    args: ['bench/express-create-floor.mjs'],
    env: { PORT: String(port), VALIDATE: validated ? '1' : '0' },
    port,
    probe: '/health',
  });
}

/**
 * CPU time (user + system, in ms) of each live process below `root` (this process by default) but the ones `outside`
 * names and their own descendants, by pid. Linux /proc; empty elsewhere.
 */
export function treeCpuMs(outside: ReadonlySet<number>, root = process.pid): Map<number, number> {
  const used = new Map<number, number>();
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return used;
  }
  const children = new Map<number, { pid: number; ms: number }[]>();
  for (const name of dirs) {
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), { pid: Number(name), ms: (Number(fields[11]) + Number(fields[12])) * 10 }]);
    } catch {
      // gone meanwhile
    }
  }
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (outside.has(child.pid)) continue;
      used.set(child.pid, child.ms);
      walk(child.pid);
    }
  };
  walk(root);
  return used;
}

/**
 * The CPU time a set of processes used between two readings of treeCpuMs: each process alive at the second reading,
 * less what it had used at the first (all of it when it started since). A process that ended between the two is
 * left out (its last moments too): the bench closes the pages it measures after its windows.
 */
export function treeCpuSince(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * The floor of the products page through Express 5 (bench/express-create-floor.mjs with PAGE_FILE): one route
 * answering the page's JSON with res.json, no middleware, no validator.
 */
export async function startExpressPageFloor(pageFile: string): Promise<Running> {
  const port = await freePort();
  return startProcess({
    name: 'Express 5, one route',
    args: ['bench/express-create-floor.mjs'],
    env: { PORT: String(port), VALIDATE: '0', PAGE_FILE: pageFile },
    port,
    probe: '/page',
  });
}
