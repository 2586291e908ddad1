// The README's CI job, end to end with the packed package: its YAML block is run step by step as GitHub Actions runs
// it (bash -e -o pipefail, job env, $GITHUB_ENV, `if:` conditions), in a job folder whose `npm test` is a tiny suite
// with one failing expectation. The job must fail, the gate must report, and the artifact must hold run.json and
// coverage.xml; then the run is opened as a developer would, with the packed bin's --load.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';
import { consumerOf, packThisCheckout, type Packed } from '../helpers/packed-package.js';
import { accepts, eventually, freePort, startServerProcess, userEnv, type ServerProcess } from '../helpers/server-process.js';
import { parseXml } from '../helpers/xml-tree.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: { path?: string };
}

/** The GitHub Actions block under "Use it in CI". */
function job(): { env: Record<string, string>; steps: Step[] } {
  const section = README.slice(README.indexOf('## Use it in CI\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('no yaml block under "Use it in CI"');
  return parse(block) as { env: Record<string, string>; steps: Step[] };
}

/** The suite `npm test` runs: a few requests of an integration, and one expectation that does not hold. */
const SUITE = `
const url = process.env.SANDBOX_URL;
const auth = { Authorization: 'Bearer ' + process.env.SANDBOX_TOKEN };
const merchants = await (await fetch(url + '/2024-09/merchants', { headers: auth })).json();
const created = await fetch(url + '/2024-09/products', {
  method: 'POST',
  headers: { ...auth, 'Content-Type': 'application/json' },
  body: JSON.stringify({ merchant_id: merchants.data[0].id, sku: 'CI-RUN-1', title: 'Made in CI' }),
});
if (created.status !== 201) throw new Error('product not created: ' + created.status);
const missing = await fetch(url + '/2024-09/merchants/00000000-0000-4000-8000-000000000000', { headers: auth });
if (missing.status !== 200) {
  console.error('expected the merchant, got ' + missing.status);
  process.exit(1);
}
`;

/** What a job's team requires of its run (the README names the file coverage.require). */
const REQUIRE = '# the pairs our integration must exercise\nlistMerchants 200\ncreateProduct 201\n* 404\n';

interface StepResult {
  step: string;
  ran: boolean;
  code: number | null;
  stderr: string;
}

/** Whether a step runs, by its `if:` (the functions this job uses), given whether an earlier step failed. */
function runs(condition: string | undefined, failed: boolean): boolean {
  const expr = (condition ?? 'success()').replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
  const known: Record<string, boolean> = { 'success()': !failed, 'failure()': failed, 'always()': true, '!cancelled()': true };
  if (!(expr in known)) throw new Error(`a condition this runner does not know: ${condition}`);
  return known[expr]!;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe("The README's CI job, with the packed package", () => {
  let packed: Packed;
  let dir: string;
  let artifacts: string;
  let port: number;
  const results: StepResult[] = [];
  let opened: ServerProcess | undefined;

  beforeAll(async () => {
    packed = packThisCheckout('sandbox-ci-job-');
    // The job's checkout: a project whose tests run against the sandbox, with the tarball where the README keeps it.
    dir = consumerOf(packed, 'job', { name: 'ci-job', private: true, type: 'module', scripts: { test: 'node suite.mjs' } }, false);
    mkdirSync(join(dir, 'vendor'));
    const { steps } = job();
    const install = steps.find((s) => s.run?.startsWith('npm i '))!.run!;
    const vendored = /\.\/vendor\/(\S+\.tgz)/.exec(install)![1]!;
    cpSync(packed.tarball, join(dir, 'vendor', vendored));
    writeFileSync(join(dir, 'suite.mjs'), SUITE);
    writeFileSync(join(dir, 'coverage.require'), REQUIRE);
    artifacts = join(packed.root, 'artifacts');
    mkdirSync(artifacts);
    port = await freePort();

    // The runner: each step in order; a step's `if:` sees whether one before it failed; $GITHUB_ENV carries over.
    const { env: jobEnv } = job();
    const githubEnv = join(packed.root, 'github-env');
    writeFileSync(githubEnv, '');
    const env = () => {
      const exported = Object.fromEntries(
        readFileSync(githubEnv, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      const withPort = Object.fromEntries(Object.entries(jobEnv).map(([k, v]) => [k, v.replaceAll(':4010', `:${port}`)]));
      return userEnv({ ...withPort, ...exported, GITHUB_ENV: githubEnv });
    };
    let failed = false;
    for (const step of steps) {
      const name = step.name ?? step.run ?? step.uses ?? '?';
      if (!runs(step.if, failed)) {
        results.push({ step: name, ran: false, code: null, stderr: '' });
        continue;
      }
      let outcome: { code: number | null; stderr: string } = { code: 0, stderr: '' };
      if (step.uses?.startsWith('actions/upload-artifact@')) {
        const paths = (step.with?.path ?? '')
          .split('\n')
          .map((p) => p.trim())
          .filter(Boolean);
        const absent = paths.filter((p) => !existsSync(join(dir, p)));
        for (const p of paths.filter((q) => !absent.includes(q))) cpSync(join(dir, p), join(artifacts, p));
        outcome = { code: 0, stderr: absent.length ? `no such files: ${absent.join(', ')}` : '' };
      } else if (step.run) {
        outcome = await bash(step.run.replaceAll('--port 4010', `--port ${port}`), dir, env());
      } // checkout and setup-node: this folder is the checkout, and this Node is on PATH.
      results.push({ step: name, ran: true, ...outcome });
      if (outcome.code !== 0) failed = true;
    }
  }, 600_000);

  afterAll(async () => {
    // Only if the last test failed before stopping it: npx alone goes, its `sh -c` and the sandbox may stay.
    if (opened?.child.exitCode === null) opened.child.kill('SIGKILL');
    try {
      process.kill(Number(readFileSync(join(dir, 'sandbox.pid'), 'utf8')), 'SIGKILL');
    } catch {
      // Stopped by the job's last step.
    }
    packed?.cleanup();
  });

  const result = (step: string) => results.find((r) => r.step === step || r.step.startsWith(step))!;

  it('When the suite fails, then the job fails at its tests, the gate still reports, and the failure steps export and upload', () => {
    expect(results.map((r) => [r.step.split('\n')[0], r.ran, r.code])).toEqual([
      ['actions/checkout@v4', true, 0],
      ['actions/setup-node@v4', true, 0],
      [expect.stringMatching(/^npm i --no-save \.\/vendor\//), true, 0],
      ['Start the sandbox', true, 0],
      ['A fresh workspace for this job', true, 0],
      ['npm test', true, 1],
      ['Coverage gate', true, 1],
      ['Export the run', true, 0],
      ['actions/upload-artifact@v4', true, 0],
      ['kill "$(cat sandbox.pid)"', true, 0],
    ]);
    expect(result('npm test').stderr).toContain('expected the merchant, got 404');
    expect(result('actions/upload-artifact@v4').stderr).toBe('');
  });

  it("When the gate ran, then it named what the run missed and the uploaded coverage.xml is JUnit with the suite's pairs passed", () => {
    const gate = result('Coverage gate').stderr;
    expect(gate).toMatch(/Failed --fail-under 30: 3 of \d+ documented statuses/);
    // `* 404`: every operation the suite called that documents 404, createProduct's too, which it never got.
    expect(gate).toContain('Failed --require: 1 of 4 required pairs not exercised: createProduct 404.');
    expect(gate).toMatch(/\n {2}listMerchants 401, 405, 422\n/);
    const root = parseXml(readFileSync(join(artifacts, 'coverage.xml'), 'utf8'));
    const cases = root.children.flatMap((suite) => suite.children);
    const passed = cases.filter((c) => c.children.length === 0).map((c) => c.attrs.name);
    expect(passed.sort()).toEqual(['createProduct 201', 'getMerchant 404', 'listMerchants 200']);
    const failed = cases.filter((c) => c.children[0]?.name === 'failure').map((c) => c.attrs.name);
    expect(failed).toEqual(['createProduct 404', 'coverage at least 30%']);
  });

  it('When the run was exported, then run.json in the artifact is the workspace with what the suite made', () => {
    const bundle = JSON.parse(readFileSync(join(artifacts, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(bundle)).toContain('CI-RUN-1');
    expect(existsSync(join(artifacts, 'sandbox.log'))).toBe(true);
  });

  it("When the developer opens the run with the packed bin's --load, then the docs page and /_sandbox/requests show it", async () => {
    // As the README says: `npx commerce-operations-sandbox --load run.json`, here on a free port.
    opened = startServerProcess('npx', ['commerce-operations-sandbox', '--load', join(artifacts, 'run.json'), '--port', '0'], { cwd: dir });
    const url = await opened.url;
    const docs = await fetch(`${url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
    // The world is the run's: the demo owner (whose token the docs page authorizes) sees what the suite made.
    const owner = { Authorization: 'Bearer demo-owner-token' };
    const products = await (await fetch(`${url}/2024-09/products?merchant_id=aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa&per_page=100`, { headers: owner })).json();
    expect(JSON.stringify(products)).toContain('CI-RUN-1');
    // The journal shows the suite's requests, newest first, marked as loaded.
    const journal = (await (await fetch(`${url}/_sandbox/requests`)).json()) as { data: { operation_id: string; status: number; loaded?: boolean }[] };
    const loaded = journal.data.filter((e) => e.loaded === true).map((e) => [e.operation_id, e.status]);
    expect(loaded).toEqual([
      ['getMerchant', 404],
      ['createProduct', 201],
      ['listMerchants', 200],
    ]);
    // Ctrl-C: npx hands the signal on through its `sh -c`, and nothing of the sandbox stays behind.
    opened.child.kill('SIGTERM');
    await opened.exited;
    expect(await eventually(async () => !(await accepts(url)))).toBe(true);
  }, 120_000);
});
