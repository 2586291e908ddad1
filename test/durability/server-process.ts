// A real sandbox process on a real data file, as a user starts it: `node` on the CLI built as dist/src is.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtEntry } from '../helpers/built-entries.js';

export const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const OWNER = { Authorization: 'Bearer demo-owner-token' };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Starting a process on a busy 2-core machine takes seconds; each test starts two to four. */
export const PROCESS_TEST_TIMEOUT = 180_000;
const running = new Set<ChildProcess>();

/** Kills (SIGKILL) every server a test started and left running, e.g. after a failed assertion. */
export function killStragglers(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  running.clear();
}

/** A fresh directory for a data file, removed by cleanup. */
export function tempStore(): { dir: string; file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-durability-'));
  return { dir, file: join(dir, 'sandbox.json'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Spawns the sandbox on `file`; does not wait for it to listen (see listening()). */
export function spawnServer(file: string, env: Record<string, string> = {}): ServerProcess {
  const child = spawn(process.execPath, [builtEntry('main')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_FILE: file, LOG_LEVEL: 'warn', STORE: 'file', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, pid: child.pid!, stdout: () => out, stderr: () => err, exited };
}

/** The base URL once the process prints it; rejects if it exits first. */
export async function listening(server: ServerProcess, timeoutMs = 90_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const match = /listening on (http:\/\/\S+)/.exec(server.stdout());
    if (match) return match[1];
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`the sandbox exited (${server.child.exitCode ?? server.child.signalCode}) before listening: ${server.stderr()}`);
    }
    if (Date.now() - started > timeoutMs) throw new Error(`the sandbox did not listen within ${timeoutMs} ms: ${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts the sandbox and waits until it listens. */
export async function startServer(file: string, env: Record<string, string> = {}): Promise<ServerProcess & { url: string }> {
  const server = spawnServer(file, env);
  return { ...server, url: await listening(server) };
}

/** Sends a signal and waits for the exit code. */
export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

export async function api(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, {
    method,
    headers: { ...OWNER, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Every item of a paginated list (per_page 100). */
export async function listAll(url: string, path: string): Promise<{ id: string }[]> {
  const items: { id: string }[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await api(url, 'GET', `${path}${sep}per_page=100&page=${page}`);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    items.push(...res.body.data);
    if (page >= res.body.meta.last_page) return items;
  }
}
