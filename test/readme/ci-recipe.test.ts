// The action (action.yml) cannot hang and cannot run another package: run step by step as GitHub Actions runs it
// (test/helpers/actions-runner.ts), it either gives the tests a sandbox answering on its port, with a workspace token,
// or fails at once with the sandbox's own message; without the project's dev dependency it refuses to start. The
// bin here runs this checkout's sources (the packed package runs the whole workflow in ci-job.test.ts).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT } from '../durability/server-process.js';
import { builtEntry } from '../helpers/built-entries.js';
import { ACTION_REPOSITORY, runSteps, type StepResult } from '../helpers/actions-runner.js';
import { accepts, eventually } from '../helpers/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A port a listener holds (the "something else" in CI), or a free one once it is let go. */
async function listener(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** A job folder; with `installed`, its node_modules/.bin holds the sandbox's bin (here: this checkout, built as dist/src is). */
function jobFolder(installed: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-action-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ci-job', version: '1.0.0', private: true }));
  if (installed) {
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    const bin = join(dir, 'node_modules', '.bin', 'commerce-operations-sandbox');
    const node = `'${process.execPath}'`;
    writeFileSync(
      bin,
      `#!/bin/sh\ncd '${ROOT}' || exit 1\ncase "$1" in coverage|export|wait) exec ${node} '${builtEntry('cli/client-main')}' "$@";; esac\nexec ${node} '${builtEntry('main')}' "$@"\n`,
    );
    chmodSync(bin, 0o755);
  }
  return dir;
}

/** Runs the action alone (one `uses:` step) in `dir` with `inputs`; answers each step's result. */
async function runAction(dir: string, inputs: Record<string, string | number>): Promise<{ results: StepResult[]; temp: string }> {
  const temp = join(dir, '.runner-temp');
  mkdirSync(temp, { recursive: true });
  const results = await runSteps([{ uses: `${ACTION_REPOSITORY}@v0`, with: inputs }], { dir, temp, artifacts: join(dir, '.artifacts') });
  return { results, temp };
}

const summary = (results: StepResult[]) => results.map((r) => [r.step, r.ran, r.code]);

describe('The CI action (action.yml)', () => {
  const dirs: string[] = [];
  let taken: { port: number; server: Server } | undefined;

  afterEach(() => {
    taken?.server.close();
    taken = undefined;
  });

  afterAll(() => {
    for (const dir of dirs) {
      try {
        process.kill(Number(readFileSync(join(dir, '.runner-temp', 'commerce-operations-sandbox', 'sandbox.pid'), 'utf8')), 'SIGKILL');
      } catch {
        // Stopped by the action's last step.
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'When the port is free, then the tests run with SANDBOX_URL and a workspace token that the sandbox accepts, and the last step stops it',
    async () => {
      const free = await listener();
      await new Promise<void>((resolve) => free.server.close(() => resolve()));
      const dir = jobFolder(true);
      dirs.push(dir);
      const run = 'curl -fsS "$SANDBOX_URL/2024-09/users/current" -H "Authorization: Bearer $SANDBOX_TOKEN" > current.json';
      const { results } = await runAction(dir, { run, port: free.port, timeout: 120 });
      expect(summary(results)).toEqual([
        ['action: Start the sandbox and wait until it answers', true, 0],
        ['action: A fresh workspace for this job', true, 0],
        ['action: Your tests', true, 0],
        ['action: Coverage gate', true, 0],
        ['action: Export the run', false, null],
        ['action: Upload the run, the coverage report and the log', false, null],
        ['action: Stop the sandbox', true, 0],
      ]);
      // The workspace's owner: its own demo user, not the default world's.
      const current = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8')) as { data: { email: string } };
      expect(current.data.email).toBe('owner@demo.example');
      expect(readFileSync(join(dir, '.runner-temp', 'github-env'), 'utf8')).toMatch(/^SANDBOX_TOKEN=ws_/m);
      expect(await eventually(async () => !(await accepts(`http://127.0.0.1:${free.port}`)), 30_000)).toBe(true);
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    'When the port is already taken, then the start fails as soon as the sandbox exits, with its own message, not after its deadline, and the log is uploaded',
    async () => {
      taken = await listener();
      const dir = jobFolder(true);
      dirs.push(dir);
      const started = performance.now();
      const { results } = await runAction(dir, { run: 'true', port: taken.port, timeout: 600 });
      // Far below the 600 s deadline: the sandbox's exit ends the wait.
      expect(performance.now() - started).toBeLessThan(120_000);
      expect(summary(results)).toEqual([
        ['action: Start the sandbox and wait until it answers', true, 1],
        ['action: A fresh workspace for this job', false, null],
        ['action: Your tests', false, null],
        ['action: Coverage gate', false, null],
        ['action: Export the run', false, null],
        ['action: Upload the run, the coverage report and the log', true, 0],
        ['action: Stop the sandbox', true, 0],
      ]);
      const start = results[0]!.stderr;
      expect(start).toContain(`commerce-operations-sandbox: port ${taken.port} on 127.0.0.1 is already in use`);
      expect(start).toMatch(/wait: the sandbox is not ready: its process \d+ exited before it answered/);
      expect(results[5]!.stderr).toBe('no such files: run.json, coverage.xml');
      expect(readFileSync(join(dir, '.artifacts', 'sandbox.log'), 'utf8')).toContain('is already in use');
    },
    PROCESS_TEST_TIMEOUT,
  );

  it('When the project has no commerce-operations-sandbox dev dependency, then the start fails saying so and installs nothing', async () => {
    const dir = jobFolder(false);
    dirs.push(dir);
    const { results } = await runAction(dir, { run: 'true' });
    expect(results[0]).toMatchObject({ step: 'action: Start the sandbox and wait until it answers', code: 1 });
    expect(results[0]!.stdout).toContain('::error::no ');
    expect(results[0]!.stdout).toContain('npm i -D commerce-operations-sandbox');
    expect(results.filter((r) => r.ran).map((r) => r.step)).toEqual([
      'action: Start the sandbox and wait until it answers',
      'action: Upload the run, the coverage report and the log',
      'action: Stop the sandbox',
    ]);
  });
});
