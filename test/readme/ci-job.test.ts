// The README's CI workflow, end to end with the packed package as a dev dependency: its YAML block is run step by step
// as GitHub Actions runs it, the action's own steps (action.yml) included (test/helpers/actions-runner.ts), in a job
// folder whose lockfile pins the package and whose `npm test` is a tiny suite with one failing expectation. The job
// must fail, the gate must report, and the artifact must hold run.json, coverage.xml and the log; then the run is
// opened as a developer would, with the installed bin's --load.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';
import { ACTION_REPOSITORY, runSteps, type Step, type StepResult } from '../helpers/actions-runner.js';
import { consumerOf, packThisCheckout, type Packed } from '../helpers/packed-package.js';
import { accepts, eventually, freePort, startServerProcess, userEnv, type ServerProcess } from '../helpers/server-process.js';
import { parseXml } from '../helpers/xml-tree.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The GitHub Actions workflow under "Use it in CI": its one job. */
function workflow(): { name: string; on: unknown; jobs: Record<string, { 'runs-on': string; steps: Step[] }> } {
  const section = README.slice(README.indexOf('## Use it in CI\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('no yaml block under "Use it in CI"');
  return parse(block) as ReturnType<typeof workflow>;
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

describe("The README's CI workflow, with the packed package as a dev dependency", () => {
  let packed: Packed;
  let dir: string;
  let artifacts: string;
  let port: number;
  let results: StepResult[] = [];
  let opened: ServerProcess | undefined;

  beforeAll(async () => {
    packed = await packThisCheckout('sandbox-ci-job-');
    // The job's checkout: a project whose tests run against the sandbox, the package among its devDependencies
    // (`npm i -D`, here from the tarball), pinned by its lockfile; node_modules is gone, as in a fresh clone.
    dir = consumerOf(packed, 'job', { name: 'ci-job', private: true, type: 'module', scripts: { test: 'node suite.mjs' } }, false);
    const added = spawnSync('npm', ['install', '-D', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', packed.tarball], {
      cwd: dir,
      env: userEnv(),
      encoding: 'utf8',
      timeout: 180_000,
    });
    expect(added.status, added.stderr).toBe(0);
    spawnSync('rm', ['-rf', join(dir, 'node_modules')]);
    writeFileSync(join(dir, 'suite.mjs'), SUITE);
    writeFileSync(join(dir, 'coverage.require'), REQUIRE);
    artifacts = join(packed.root, 'artifacts');
    const temp = join(packed.root, 'runner-temp');
    mkdirSync(temp);
    port = await freePort();
    const [job] = Object.values(workflow().jobs);
    // On a free port instead of the default 4010 (the action's `port` input).
    const steps = job!.steps.map((step) => (step.uses?.startsWith(`${ACTION_REPOSITORY}@`) ? { ...step, with: { ...step.with, port } } : step));
    results = await runSteps(steps, { dir, temp, artifacts });
  }, 600_000);

  afterAll(async () => {
    // Only if the last test failed before stopping it: npx alone goes, its `sh -c` and the sandbox may stay.
    if (opened?.child.exitCode === null) opened.child.kill('SIGKILL');
    try {
      process.kill(Number(readFileSync(join(packed.root, 'runner-temp', 'commerce-operations-sandbox', 'sandbox.pid'), 'utf8')), 'SIGKILL');
    } catch {
      // Stopped by the action's last step.
    }
    packed?.cleanup();
  });

  const result = (step: string) => results.find((r) => r.step === step || r.step.startsWith(step))!;

  it('When it is parsed, then it is a whole workflow: a trigger, a job that runs on a runner, npm ci, then the action', () => {
    const wf = workflow();
    expect(wf.on).toBeDefined();
    const [job] = Object.values(wf.jobs);
    expect(job!['runs-on']).toBe('ubuntu-latest');
    expect(job!.steps.map((s) => s.run ?? s.uses)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm ci',
      expect.stringMatching(new RegExp(`^${ACTION_REPOSITORY}@v\\d+\\.\\d+\\.\\d+$`)),
    ]);
  });

  it('When the suite fails, then the job fails at its tests, the gate still reports, the run is exported and uploaded, and the sandbox is stopped', async () => {
    expect(results.map((r) => [r.step.split('\n')[0], r.ran, r.code])).toEqual([
      ['actions/checkout@v4', true, 0],
      ['actions/setup-node@v4', true, 0],
      ['npm ci', true, 0],
      ['action: Start the sandbox and wait until it answers', true, 0],
      ['action: A fresh workspace for this job', true, 0],
      ['action: Your tests', true, 1],
      ['action: Coverage gate', true, 1],
      ['action: Export the run', true, 0],
      ['action: Upload the run, the coverage report and the log', true, 0],
      ['action: Stop the sandbox', true, 0],
    ]);
    expect(result('action: Start the sandbox').stderr).toMatch(/wait: ready at http:\/\/127\.0\.0\.1:\d+ after/);
    expect(result('action: Your tests').stderr).toContain('expected the merchant, got 404');
    expect(result('action: Upload').stderr).toBe('');
    // The installed dev dependency ran, and the step that stopped it left nothing listening.
    expect(existsSync(join(dir, 'node_modules', '.bin', 'commerce-operations-sandbox'))).toBe(true);
    expect(await eventually(async () => !(await accepts(`http://127.0.0.1:${port}`)), 15_000)).toBe(true);
  });

  it("When the gate ran, then it named what the run missed and the uploaded coverage.xml is JUnit with the suite's pairs passed", () => {
    const gate = result('action: Coverage gate').stderr;
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

  it('When the run was exported, then run.json in the artifact is the workspace with what the suite made, beside the log', () => {
    const bundle = JSON.parse(readFileSync(join(artifacts, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(JSON.stringify(bundle)).toContain('CI-RUN-1');
    expect(readFileSync(join(artifacts, 'sandbox.log'), 'utf8')).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
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
