import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { accepts, releasedBy, startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const OWNER = { Authorization: 'Bearer demo-owner-token' };
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

let dir: string | undefined;
const started: ServerProcess[] = [];
afterEach(() => {
  for (const server of started.splice(0)) server.child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** `npm start` on a data file, as a user types it: the PID we hold is npm's. */
function npmStart(dataFile: string): ServerProcess {
  const server = startServerProcess('npm', ['start', '--', '--data', dataFile, '--port', '0', '--log-level', 'warn'], { cwd: projectRoot });
  started.push(server);
  return server;
}

describe('npm start runs one server that stops on the signal sent to the PID that started it', () => {
  it('When the PID of `npm start` gets SIGTERM, then the server stops, frees its port and data-file lock, and the next `npm start` on the same file succeeds', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-npm-start-'));
    const dataFile = join(dir, 'sandbox.json');
    const first = npmStart(dataFile);
    const url = await first.url;
    expect((await fetch(`${url}/2024-09/users/current`, { headers: OWNER })).status).toBe(200);
    // Validated requests print no warning (the validator's url.parse(): DEP0169 on Node 24 for a caller outside node_modules).
    expect((await fetch(`${url}/2024-09/products?merchant_id=${MERCHANT}&per_page=2`, { headers: OWNER })).status).toBe(200);

    first.child.kill('SIGTERM');
    // npm exits only once the server has: the script execs node, so npm's child is the server itself.
    expect(await first.exited).toBe(0);
    expect(await accepts(url)).toBe(false);
    expect(await releasedBy(url, dataFile)).toBe(true);
    expect(first.output()).not.toMatch(/Warning/);

    const second = npmStart(dataFile);
    const again = await second.url;
    expect((await fetch(`${again}/_sandbox/health`)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
