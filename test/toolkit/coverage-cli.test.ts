// The client commands as a CI step runs them: their own process against a real sandbox on a loopback port, with the
// exit codes and streams a job reads. (The packed bin runs them in test/readme/ci-job.test.ts.)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { freePort, userEnv } from '../helpers/server-process.js';
import { parseXml } from '../helpers/xml-tree.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `commerce-operations-sandbox <args>` from this checkout's sources in its own process. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/client-main.ts', ...args],
      { cwd: projectRoot, env: userEnv(env), timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('commerce-operations-sandbox coverage', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let token: string;
  const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent', port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'sandbox-gate-'));
    token = sandbox.createWorkspace().tokens.owner;
    // The "suite": listMerchants 200 and 422, getMerchant 404.
    const get = (path: string) => fetch(`${sandbox.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await get('/2024-09/merchants')).status).toBe(200);
    expect((await get('/2024-09/merchants?per_page=0')).status).toBe(422);
    expect((await get('/2024-09/merchants/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('When the required pairs were exercised and the share reaches --fail-under, then it exits 0 with the markdown report on stdout and the verdict on stderr', async () => {
    const require = file('ok.require', '# the team\nlistMerchants 200\n* 404\n');
    const run = await cli(['coverage', '--url', sandbox.url, '--token', token, '--require', require, '--fail-under', '0.5']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^### Contract coverage of workspace `[0-9a-f]{12}`: 3 of \d+ documented statuses/);
    expect(run.stdout).toContain('| listMerchants | GET /2024-09/merchants | 200, 422 |');
    expect(run.stderr).toContain('Passed --fail-under 0.5');
    expect(run.stderr).toContain('Passed --require: all 2 required pairs exercised.');
  }, 60_000);

  it('When the share is below --fail-under, then it exits 1 and lists every pair not exercised, by operation', async () => {
    const run = await cli(['coverage', '--url', sandbox.url, '--token', token, '--fail-under', '50', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).data.totals.answered_statuses).toBe(3);
    expect(run.stderr).toMatch(/Failed --fail-under 50: 3 of \d+ documented statuses/);
    expect(run.stderr).toContain('\n  listMerchants 401, 405\n');
    expect(run.stderr).toMatch(/\n {2}getMerchant 200, 401, 403, 405, 422\n/);
  }, 60_000);

  it('When a required pair was not exercised, then it exits 1 naming it, and the JUnit report marks it failed and the rest skipped', async () => {
    const require = file('missed.require', 'listMerchants 4xx\n');
    const run = await cli(['coverage', '--url', sandbox.url, '--token', token, '--require', require, '--format', 'junit']);
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
    const run = await cli(['coverage', '--url', sandbox.url, '--token', token, '--require', require]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${require}:2: listMerchants documents no 404 (it documents 200, 401, 405, 422)`);
  }, 60_000);

  it('When no sandbox answers, the token is refused or a flag is wrong, then it exits 2 saying so', async () => {
    const port = await freePort();
    const [gone, refused, usage] = await Promise.all([
      cli(['coverage', '--url', `http://127.0.0.1:${port}`]),
      cli(['coverage', '--url', sandbox.url], { SANDBOX_TOKEN: 'ws_000000000000.wrong' }),
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
