// The client commands (`coverage`, `export`, `wait`) run in this process against the server a user starts, on a
// loopback port: what they write to stdout and stderr and the exit code they answer. (coverage-cli.test.ts and
// wait-ready.test.ts run the built bin in its own process, as a CI step does.)
import { spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runClient } from '../../src/cli/client.js';
import { demo, testApp } from '../helpers/app.js';
import { ADMIN, hostedApp, newWorkspace } from '../hosted/support.js';

/** One client command's run: its exit code and what it wrote. */
async function client(argv: string[], env: Record<string, string> = {}) {
  const out: Buffer[] = [];
  let stderr = '';
  const code = await runClient(argv, {
    env,
    stdout: (chunk) => out.push(Buffer.from(chunk)),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr };
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A workspace of `app` with one product of its own, made with its owner token. */
async function workspaceWithProduct(app: Server, sku: string) {
  const ws = await newWorkspace(app);
  await request(app)
    .post('/2024-09/products')
    .set({ Authorization: `Bearer ${ws.tokens.owner}` })
    .send({ merchant_id: demo.merchant, sku, title: 'Made by the run' })
    .expect(201);
  return ws;
}

describe('export', () => {
  it('When run with a workspace token, then stdout is that workspace’s bundle, its records included, and it exits 0', async () => {
    const t = await testApp();
    const ws = await workspaceWithProduct(t.app, 'EXPORTED-1');
    const run = await client(['export', '--url', urlOf(t.app)], { SANDBOX_TOKEN: ws.tokens.owner });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const direct = await request(t.app)
      .get(`/_sandbox/workspaces/${ws.id}/export`)
      .set({ Authorization: `Bearer ${ws.tokens.owner}` });
    // The same bundle as the API's, but for the moment it was taken.
    expect(JSON.parse(run.stdout)).toEqual({ ...direct.body, exported_at: expect.any(String) });
    expect(run.stdout).toContain('EXPORTED-1');
  });

  it('When run with no token on a local sandbox, then the default world is exported, without the workspaces’ records', async () => {
    const t = await testApp();
    await workspaceWithProduct(t.app, 'ONLY-IN-WORKSPACE');
    const run = await client(['export', '--url', urlOf(t.app)]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toBeTypeOf('object');
    expect(run.stdout).not.toContain('ONLY-IN-WORKSPACE');
  });

  it('When --workspace names a workspace the token does not belong to, then it exits 2 with the sandbox’s refusal and writes nothing', async () => {
    const t = await testApp();
    const mine = await newWorkspace(t.app);
    const other = await newWorkspace(t.app);
    const run = await client(['export', '--url', urlOf(t.app), '--token', mine.tokens.owner, '--workspace', other.id]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^commerce-operations-sandbox export: GET /_sandbox/workspaces/${other.id}/export answered 40[134]: \\S`));
  });
});

describe('coverage in hosted mode', () => {
  it('When the admin token names a workspace with --workspace, then the report is that workspace’s, counting its requests only', async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    await request(t.app)
      .get('/2024-09/merchants')
      .set({ Authorization: `Bearer ${ws.tokens.owner}` })
      .expect(200);
    const run = await client(['coverage', '--url', urlOf(t.app), '--token', ADMIN, '--workspace', ws.id, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout).data;
    expect(report.workspace).toBe(ws.id);
    expect(report.totals.answered_statuses).toBe(1);
    const other = await newWorkspace(t.app);
    const empty = JSON.parse((await client(['coverage', '--url', urlOf(t.app), '--token', ADMIN, '--workspace', other.id, '--format', 'json'])).stdout).data;
    expect(empty.totals.answered_statuses).toBe(0);
  });
});

describe('what keeps a client command from its answer', () => {
  it('When the word after the bin is no client command, then it exits 2 naming it and pointing at --help', async () => {
    const run = await client(['exprot', '--url', 'http://127.0.0.1:1']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: "commerce-operations-sandbox unknown command 'exprot'\ncommerce-operations-sandbox exprot --help shows the options.\n",
    });
  });

  it('When the --require file cannot be read, then it exits 2 naming the file and why, before asking any sandbox', async () => {
    const missing = join(tmpdir(), `no-such-${process.pid}-${Date.now()}.require`);
    const run = await client(['coverage', '--url', 'http://127.0.0.1:1', '--require', missing]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `commerce-operations-sandbox coverage: cannot read --require file ${missing}: ENOENT\ncommerce-operations-sandbox coverage --help shows the options.\n`,
    });
  });

  it('When a proxy in front of the sandbox answers with its own HTML page, then it exits 2 with the status and the page’s first characters', async () => {
    const page = `<html><body>Bad gateway${' '.repeat(400)}</body></html>`;
    const proxy = createHttpServer((_req, res) => res.writeHead(502, { 'Content-Type': 'text/html' }).end(page));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
    const run = await client(['coverage', '--url', urlOf(proxy)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`commerce-operations-sandbox coverage: GET /_sandbox/coverage answered 502: ${page.slice(0, 300)}\n`);
  });

  it('When help is asked for export, then the usage goes to stdout and it exits 0 without asking any sandbox', async () => {
    const run = await client(['export', '--help', '--url', 'http://127.0.0.1:1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('commerce-operations-sandbox export');
    expect(run.stderr).toBe('');
  });

  it('When wait is run against a sandbox that answers, then it exits 0 saying where it is ready', async () => {
    const t = await testApp();
    const run = await client(['wait', '--url', urlOf(t.app), '--timeout', '30']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^commerce-operations-sandbox wait: ready at ${urlOf(t.app)} after \\d+\\.\\d s\\n$`));
  });

  it('When wait is given the pid of a sandbox process that has exited, then it stops at once with exit 1, long before its deadline', async () => {
    const exited = spawnSync(process.execPath, ['-e', '']).pid!;
    const started = performance.now();
    const run = await client(['wait', '--url', 'http://127.0.0.1:1', '--timeout', '600', '--pid', String(exited)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`commerce-operations-sandbox wait: the sandbox is not ready: its process ${exited} exited before it answered (its log says why)\n`);
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});
