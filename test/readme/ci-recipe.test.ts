// The README's CI recipe cannot hang: its "Start the sandbox" step, run as GitHub Actions runs it (bash -e), either
// leaves a sandbox answering on the port or fails at once with the sandbox's own message.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load as parse } from 'js-yaml';
import { PROCESS_TEST_TIMEOUT } from '../durability/server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The `run` of the "Start the sandbox" step of the GitHub Actions block under "Use it in CI". */
function startStep(): string {
  const section = README.slice(README.indexOf('## Use it in CI\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('no yaml block under "Use it in CI"');
  const steps = parse(block) as { steps: { name?: string; run?: string }[] };
  const step = steps.steps.find((s) => s.name === 'Start the sandbox');
  if (!step?.run) throw new Error('no "Start the sandbox" step with a run');
  return step.run;
}

/** A port a listener holds (the "something else" in CI), or a free one once it is let go. */
async function listener(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** Runs the step in `dir` as GitHub Actions does (bash -e), with 4010 replaced by `port`. */
function runStep(dir: string, port: number): Promise<{ code: number | null; stderr: string }> {
  const script = startStep().replaceAll('--port 4010', `--port ${port}`);
  expect(script).toContain(`--port ${port}`);
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-e', '-c', script], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe("The README's CI recipe", () => {
  let dir: string;

  beforeAll(() => {
    // A job's directory where the package is installed: `npx commerce-operations-sandbox` finds its bin in
    // node_modules/.bin. The bin here runs this checkout's sources (the packed bin is tested in test/package).
    dir = mkdtempSync(join(tmpdir(), 'sandbox-ci-recipe-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ci-job', version: '1.0.0', private: true }));
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    const bin = join(dir, 'node_modules', '.bin', 'commerce-operations-sandbox');
    writeFileSync(bin, `#!/bin/sh\ncd '${ROOT}' && exec '${process.execPath}' --import tsx src/main.ts "$@"\n`);
    chmodSync(bin, 0o755);
  });

  afterAll(() => {
    try {
      process.kill(Number(readFileSync(join(dir, 'sandbox.pid'), 'utf8')), 'SIGKILL');
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'When the port is already taken, then the step fails as soon as the sandbox exits, with its own message, not after its deadline',
    async () => {
      const taken = await listener();
      try {
        const { code, stderr } = await runStep(dir, taken.port);
        expect(code).toBe(1);
        expect(stderr).toContain(`commerce-operations-sandbox: port ${taken.port} on 127.0.0.1 is already in use`);
        expect(stderr).not.toContain('did not start within');
      } finally {
        taken.server.close();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    'When the port is free, then the step ends with the sandbox answering there, and its PID file stops it',
    async () => {
      const free = await listener();
      await new Promise<void>((resolve) => free.server.close(() => resolve()));
      const { code, stderr } = await runStep(dir, free.port);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const health = await fetch(`http://127.0.0.1:${free.port}/_sandbox/health`);
      expect(health.status).toBe(200);
      const pid = Number(readFileSync(join(dir, 'sandbox.pid'), 'utf8'));
      process.kill(pid, 'SIGTERM');
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${free.port}/_sandbox/health`).then(
              () => 'up',
              () => 'down',
            ),
          { timeout: 30_000 },
        )
        .toBe('down');
    },
    PROCESS_TEST_TIMEOUT,
  );
});
