import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { lockPath } from '../../src/store/data-file-lock.js';

/** A sandbox started as its own process, the way a user starts it (npm start, the bin, the Docker command). */
export interface ServerProcess {
  child: ChildProcess;
  /** The URL from its "listening on" line; rejects if it exits first. */
  url: Promise<string>;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

/**
 * Variables that would change what a started sandbox does, cleared so the caller's shell does not leak in; and
 * npm's own (npm_*), which `npm test` passes down: the process starts as from a user's shell.
 */
const SANDBOX_VARIABLES = [
  'PORT',
  'HOST',
  'SEED',
  'DATA_FILE',
  'STORE',
  'RESET',
  'LATENCY_MS',
  'LOG_LEVEL',
  'CORS_ORIGINS',
  'WORKSPACE_TTL_SECONDS',
  'HOSTED',
  'SANDBOX_ADMIN_TOKEN',
  'WORKSPACE_CREATE_PER_MINUTE',
  'PUBLIC_URL',
  'ADMIN_ATTEMPTS_PER_HOUR',
];

/** The environment of a user's shell: this one without sandbox and npm variables, plus `extra`. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (SANDBOX_VARIABLES.includes(name) || name.startsWith('npm_')) delete env[name];
  return { ...env, ...extra };
}

/** Spawns `command args` and reads the URL it announces. */
export function startServerProcess(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): ServerProcess {
  const child = spawn(command, args, { cwd: options.cwd, env: userEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    void exited.then((code) => reject(new Error(`${command} exited with ${code} before listening: ${output}`)));
  });
  // Awaited by the tests that need it; one that only kills the process must not leave an unhandled rejection.
  url.catch(() => undefined);
  return { child, url, exited, output: () => output };
}

/** Whether something accepts connections on the URL's port. */
export function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Waits until `done()` holds, checking every 50 ms, for at most `withinMs`: for what another process does after
 * its parent has gone (nothing there to await). Answers whether it held.
 */
export async function eventually(done: () => boolean | Promise<boolean>, withinMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The server on `url` is gone and has released `dataFile`: nothing listens, no lock file is left. */
export async function releasedBy(url: string, dataFile: string): Promise<boolean> {
  return !(await accepts(url)) && !existsSync(lockPath(dataFile));
}

/** A loopback port nothing listens on now: for a server to start on, or a client to find closed. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
