import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { startSandbox } from '../../src/start-sandbox.js';
import { builtEntry } from '../helpers/built-entries.js';

// The CLI built as dist/src is (npm start and the packed bin run the same modules), once per run.
const CLI = [builtEntry('main')];
// Only the variables the CLI reads are cleared, so the test does not depend on the caller's shell.
const cleanEnv = () => {
  const env = { ...process.env };
  for (const name of ['PORT', 'HOST', 'SEED', 'DATA_FILE', 'STORE', 'RESET', 'LATENCY_MS', 'LOG_LEVEL', 'CORS_ORIGINS', 'WORKSPACE_TTL_SECONDS'])
    delete env[name];
  return env;
};
const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [...CLI, ...args], { cwd: projectRoot, env: { ...cleanEnv(), ...env }, encoding: 'utf8', timeout: 60_000 });

/** The CLI started with `args`: its output so far, and the output once it has printed what `until` matches. */
function started(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: projectRoot, env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (c) => (output += c));
  child.stdout.on('data', (c) => (output += c));
  const printed = (until: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const look = () => until.test(output) && resolve(output);
      child.stdout.on('data', look);
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
      look();
    });
  return { child, output: () => output, printed };
}

/** A run.json exported from a workspace of a sandbox of `seed` that listed merchants once; remove `dir` after. */
async function exportedRunFile(seed?: number): Promise<{ dir: string; file: string }> {
  const source = await startSandbox({ logLevel: 'silent', seed });
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-load-'));
  const file = join(dir, 'run.json');
  try {
    const ws = source.createWorkspace();
    const auth = { Authorization: `Bearer ${ws.tokens.owner}` };
    await fetch(`${source.url}/2024-09/merchants`, { headers: auth });
    writeFileSync(file, await (await fetch(`${source.url}/_sandbox/workspaces/${ws.id}/export`, { headers: auth })).text());
  } finally {
    await source.close();
  }
  return { dir, file };
}

describe('the CLI (src/main.ts)', () => {
  it('When --help is given, then it prints every flag and exits 0', () => {
    const res = run(['--help']);
    expect(res.status).toBe(0);
    for (const flag of ['--port', '--host', '--seed', '--data', '--in-memory', '--reset', '--latency', '--log-level', '--help'])
      expect(res.stdout).toContain(flag);
  }, 60_000);

  it('When a value is bad, then it names the flag or variable, points at --help and exits 2', () => {
    for (const [args, env, message] of [
      [['--port', 'abc'], {}, "--port must be an integer from 0 to 65535, got 'abc'"],
      [['--latency', '-3'], {}, "--latency must be an integer number of milliseconds from 0 to 60000, got '-3'"],
      [['--log-level', 'loud'], {}, '--log-level must be one of'],
      [['--in-memory', '--data', 'x.json'], {}, '--data and --in-memory cannot be combined'],
      [['--prot', '1'], {}, 'Did you mean --port?'],
      [[], { PORT: 'abc' }, "PORT must be an integer from 0 to 65535, got 'abc'"],
      [[], { WORKSPACE_TTL_SECONDS: 'soon' }, 'WORKSPACE_TTL_SECONDS must be an integer'],
    ] as [string[], NodeJS.ProcessEnv, string][]) {
      const res = run(args, env);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(message);
      expect(res.stderr).toContain('--help');
    }
  }, 120_000);

  it('When started in memory on port 0, then it serves health and the API, logs one JSON line per request and exits 0 on SIGTERM', async () => {
    const { child, output, printed } = started(['--in-memory', '--port', '0', '--seed', '7', '--latency', '5']);
    try {
      const url = /listening on (http:\/\/\S+)/.exec(await printed(/listening on http:\/\/\S+\n/))![1]!;
      const health = await fetch(`${url}/_sandbox/health`);
      expect(await health.json()).toMatchObject({ status: 'ok', store: 'memory', seed: 7 });
      expect((await fetch(`${url}/2024-09/merchants`, { headers: { Authorization: 'Bearer demo-owner-token' } })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      expect(output()).toContain(`  inspector:   ${url}/_sandbox/inspector\n`);
      const line = output()
        .split('\n')
        .find((l) => l.includes('"operation_id":"listMerchants"'));
      expect(JSON.parse(line!)).toMatchObject({ method: 'GET', path: '/2024-09/merchants', status: 200 });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('When --load names a bundle exported from a sandbox of another seed and no --seed is given, then it loads with the seed the bundle names', async () => {
    const { dir, file } = await exportedRunFile(5);
    const { child, printed } = started(['--load', file, '--port', '0']);
    try {
      const banner = await printed(/demo tokens:/);
      expect(banner).toContain('(seed 5)');
      const url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
      expect(((await (await fetch(`${url}/_sandbox/health`)).json()) as { seed: number }).seed).toBe(5);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("When started with --load run.json, then its banner prints the inspector's URL, where the loaded run opens", async () => {
    const { dir, file } = await exportedRunFile();
    const { child, printed } = started(['--load', file, '--port', '0']);
    try {
      const banner = await printed(/demo tokens:/);
      const url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
      expect(banner).toContain(`  inspector:   ${url}/_sandbox/inspector\n`);
      expect(banner).toMatch(new RegExp(`loaded: +.*run\\.json .*${url.replace(/[.]/g, '\\.')}/_sandbox/inspector`));
      // The loaded run is what the inspector reads: its journal, marked loaded.
      const journal = (await (await fetch(`${url}/_sandbox/requests`)).json()) as { data: { loaded?: boolean; trail?: unknown }[] };
      expect(journal.data[0]).toMatchObject({ loaded: true, trail: { answered_by: 'handler' } });
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('When started in hosted mode, then its banner names no demo token (they answer 401 there) and says where tokens come from', async () => {
    const { child, printed } = started(['--in-memory', '--port', '0'], {
      HOSTED: '1',
      SANDBOX_ADMIN_TOKEN: 'a1'.repeat(32),
      PUBLIC_URL: 'https://sandbox.example.com',
    });
    try {
      const banner = await printed(/tokens: .*\n/);
      expect(banner).not.toContain('demo-owner-token');
      expect(banner).toMatch(/tokens: .*POST \/_sandbox\/workspaces/);
      const url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
      const demo = await fetch(`${url}/2024-09/merchants`, { headers: { Authorization: 'Bearer demo-owner-token' } });
      expect(demo.status).toBe(401);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('When --host names a host that does not resolve, then the message names that host and exits 1', () => {
    const res = run(['--in-memory', '--port', '0', '--host', 'no-such-host.invalid']);
    expect(res.status).toBe(1);
    expect(res.stderr.trim()).toBe('commerce-operations-sandbox: cannot listen on no-such-host.invalid: ENOTFOUND; check --host.');
  }, 60_000);

  it("When the data file's folder is a file, then start-up stops with one line naming the data file, no stack trace, and exits 1", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    try {
      writeFileSync(join(dir, 'plain.txt'), 'text');
      const file = join(dir, 'plain.txt', 'sandbox.json');
      const res = run(['--port', '0', '--data', file]);
      expect(res.status).toBe(1);
      const lines = res.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^commerce-operations-sandbox: The data file ${file} cannot be locked for this process \\(E[A-Z]+: .*\\)\\. Point --data`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('When whoever reads its output goes away (a closed pipe, as after `| head -1`), then it keeps answering, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [...CLI, '--in-memory', '--port', '0'], { cwd: projectRoot, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (c) => (errors += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (c) => {
          output += c;
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${errors}`)));
      });
      child.stdout.destroy();
      for (let i = 0; i < 5; i++) expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(errors).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('When the port is taken, then it says so and exits 1', async () => {
    const { createServer } = await import('node:http');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = run(['--in-memory', '--port', String(port)]);
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
