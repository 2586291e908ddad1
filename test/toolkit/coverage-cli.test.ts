// The client commands as a CI step runs them: their own process against a real sandbox on a loopback port, with the
// exit codes and streams a job reads. (The packed bin runs them in test/readme/ci-job.test.ts.)
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { freePort, userEnv } from '../helpers/server-process.js';
import { parseXml } from '../helpers/xml-tree.js';
import { builtEntry } from '../helpers/built-entries.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `commerce-operations-sandbox <args>` from this checkout, built as dist/src is, in its own process. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [builtEntry('cli/client-main'), ...args], { cwd: projectRoot, env: userEnv(env), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

type Call = (method: string, path: string, headers?: Record<string, string>) => Promise<Response>;

/**
 * For one describe: a sandbox on a loopback port, a workspace whose owner token ran `suite` (the team's tests) before
 * the first test, and a folder for --require files.
 */
function gateRun(suite: (call: Call) => Promise<void>) {
  const run = { sandbox: undefined as unknown as RunningSandbox, dir: '', token: '' };
  beforeAll(async () => {
    run.sandbox = await startSandbox({ logLevel: 'silent', port: 0 });
    run.dir = mkdtempSync(join(tmpdir(), 'sandbox-gate-'));
    run.token = run.sandbox.createWorkspace().tokens.owner;
    await suite((method, path, headers = {}) => fetch(`${run.sandbox.url}${path}`, { method, headers: { Authorization: `Bearer ${run.token}`, ...headers } }));
  }, 60_000);
  afterAll(async () => {
    await run.sandbox?.close();
    rmSync(run.dir, { recursive: true, force: true });
  });
  return {
    get url() {
      return run.sandbox.url;
    },
    get token() {
      return run.token;
    },
    file: (name: string, text: string) => (writeFileSync(join(run.dir, name), text), join(run.dir, name)),
  };
}

describe('commerce-operations-sandbox coverage', () => {
  // The "suite": listMerchants 200 and 422, getMerchant 404.
  const gate = gateRun(async (call) => {
    expect((await call('GET', '/2024-09/merchants')).status).toBe(200);
    expect((await call('GET', '/2024-09/merchants?per_page=0')).status).toBe(422);
    expect((await call('GET', '/2024-09/merchants/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
  const file = gate.file;

  it('When the required pairs were exercised and the share reaches --fail-under, then it exits 0 with the markdown report on stdout and the verdict on stderr', async () => {
    const require = file('ok.require', '# the team\nlistMerchants 200\n* 404\n');
    const run = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', require, '--fail-under', '0.5']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^### Contract coverage of workspace `[0-9a-f]{12}`: 3 of \d+ documented statuses/);
    expect(run.stdout).toContain('| listMerchants | GET /2024-09/merchants | 200, 422 |');
    expect(run.stderr).toContain('Passed --fail-under 0.5');
    expect(run.stderr).toContain('Passed --require: all 2 required pairs exercised.');
  }, 60_000);

  it("When the reader of the report goes away (a closed pipe, as with `| head -1`), then the exit code and the verdict on stderr are still the gate's", async () => {
    const child = spawn(
      process.execPath,
      [builtEntry('cli/client-main'), 'coverage', '--url', gate.url, '--token', gate.token, '--format', 'junit', '--fail-under', '0.5'],
      {
        cwd: projectRoot,
        env: userEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toContain('Passed --fail-under 0.5');
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 60_000);

  it('When the share is below --fail-under, then it exits 1 and lists every pair not exercised, by operation', async () => {
    const run = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--fail-under', '50', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).data.totals.answered_statuses).toBe(3);
    expect(run.stderr).toMatch(/Failed --fail-under 50: 3 of \d+ documented statuses/);
    expect(run.stderr).toContain('\n  listMerchants 401, 405\n');
    expect(run.stderr).toMatch(/\n {2}getMerchant 200, 401, 403, 405, 422\n/);
  }, 60_000);

  it('When a required pair was not exercised, then it exits 1 naming it, and the JUnit report marks it failed and the rest skipped', async () => {
    const require = file('missed.require', 'listMerchants 4xx\n');
    const run = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', require, '--format', 'junit']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Failed --require: 2 of 3 required pairs not exercised: listMerchants 401, listMerchants 405.');
    expect(run.stderr).toContain('\n  listMerchants 401, 405\n');
    const root = parseXml(run.stdout);
    const cases = root.children.flatMap((suite) => suite.children);
    const outcome = (name: string) => cases.find((c) => c.attrs.name === name)?.children[0]?.name ?? 'passed';
    expect(['listMerchants 200', 'listMerchants 401', 'listMerchants 405', 'listMerchants 422', 'getMerchant 403'].map(outcome)).toEqual([
      'passed',
      'failure',
      'failure',
      'passed',
      'skipped',
    ]);
    expect(root.attrs.failures).toBe('2');
  }, 60_000);

  it('When the --require file has a wrong line, then it exits 2 naming the file and line, before asking the sandbox anything', async () => {
    const require = file('wrong.require', 'listMerchants 200\nlistMerchants: 404\n');
    const port = await freePort();
    const run = await cli(['coverage', '--url', `http://127.0.0.1:${port}`, '--require', require]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`coverage: ${require}:2: expected '<operationId or *> <status like 404 or 4xx>', got 'listMerchants: 404'`);
    expect(run.stdout).toBe('');
  }, 60_000);

  it('When a line names a status the operation does not document, then it exits 2 naming the line and the statuses it documents', async () => {
    const require = file('undocumented.require', 'listMerchants 200\nlistMerchants 404\n');
    const run = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', require]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${require}:2: listMerchants documents no 404 (it documents 200, 401, 405, 422)`);
  }, 60_000);

  it('When no sandbox answers, the token is refused or a flag is wrong, then it exits 2 saying so', async () => {
    const port = await freePort();
    const [gone, refused, usage] = await Promise.all([
      cli(['coverage', '--url', `http://127.0.0.1:${port}`]),
      cli(['coverage', '--url', gate.url], { SANDBOX_TOKEN: 'ws_000000000000.wrong' }),
      cli(['coverage', '--fail-under', 'lots']),
    ]);
    expect(gone).toMatchObject({ code: 2, stderr: expect.stringContaining(`cannot reach the sandbox at http://127.0.0.1:${port}: ECONNREFUSED`) });
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('GET /_sandbox/coverage answered 401') });
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("--fail-under must be a percentage from 0 to 100, got 'lots'") });
  }, 60_000);

  it('When --help is asked for, then it explains the require file and the exit codes and exits 0', async () => {
    const run = await cli(['coverage', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('* 422');
    expect(run.stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 /);
  }, 60_000);
});

describe('commerce-operations-sandbox coverage: forced answers and statuses no client request causes', () => {
  // The "suite": a delete it only forced (the merchant is still there), and an upload without a body.
  const gate = gateRun(async (call) => {
    expect((await call('DELETE', '/2024-09/merchants/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', { Prefer: 'code=204' })).status).toBe(204);
    expect((await call('GET', '/2024-09/merchants/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa')).status).toBe(200);
    expect((await call('POST', '/2024-09/products/dddddddd-dddd-4ddd-8ddd-ddddddddd001/images')).status).toBeGreaterThanOrEqual(400);
  });
  const file = gate.file;

  it('When a required pair was only forced with Prefer: code=, then the gate fails saying so; with --count-forced it passes', async () => {
    const require = file('forced.require', 'deleteMerchant 204\n');
    const strict = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', require]);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stderr).toContain('answered only when forced with Prefer: code= (not counted unless --count-forced): deleteMerchant 204.');
    const counted = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', require, '--count-forced', '--format', 'junit-gate']);
    expect(counted.code, counted.stderr).toBe(0);
    expect(counted.stderr).toContain('Passed --require: all 1 required pairs exercised.');
    expect(counted.stdout).toContain('name="deleteMerchant 204" time="0"/>');
  }, 60_000);

  it('When a * line names statuses no client request causes, then it leaves them out and says so; --count-forced or naming the operation requires them', async () => {
    const wildcard = file('wildcard.require', '* 5xx\n');
    const run = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', wildcard]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`${wildcard}:1: '* 5xx' leaves out createProductImage 503: no client request causes them (x-sandbox-client-causable: false)`);
    const forcedToo = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', wildcard, '--count-forced']);
    expect(forcedToo.code).toBe(1);
    expect(forcedToo.stderr).toContain('Failed --require: 1 of 1 required pairs not exercised: createProductImage 503.');
    const named = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--require', file('named.require', 'createProductImage 503\n')]);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('createProductImage 503');
  }, 60_000);

  it('When --fail-under measures the operations called, then the statuses no client request causes are left out of the share, and forced ones count only with --count-forced', async () => {
    const report = JSON.parse((await cli(['coverage', '--url', gate.url, '--token', gate.token, '--format', 'json'])).stdout).data;
    const documented = (id: string) => report.operations.find((op: { operation_id: string }) => op.operation_id === id).documented.length;
    const upload = report.operations.find((op: { operation_id: string }) => op.operation_id === 'createProductImage');
    expect(upload.not_client_causable).toEqual(['503']);
    // Called: getMerchant (200) and createProductImage (a 4xx); deleteMerchant was only forced.
    const run = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--fail-under', '100']);
    const share = documented('getMerchant') + documented('createProductImage') - 1;
    expect(run.stderr).toContain(`2 of ${share} documented statuses of the 2 operations the run called`);
    expect(run.stderr).toContain('leaving out 1 no client request causes');
    expect(run.stderr).not.toMatch(/^ {2}createProductImage .*503/m);
    const counted = await cli(['coverage', '--url', gate.url, '--token', gate.token, '--fail-under', '100', '--count-forced']);
    expect(counted.stderr).toContain(`3 of ${share + 1 + documented('deleteMerchant')} documented statuses of the 3 operations the run called`);
    expect(counted.stderr).toContain('forced answers counted (--count-forced)');
  }, 60_000);
});
