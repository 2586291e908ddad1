// The README and docs/ cannot rot: their shell blocks run as written, in order (the README's, then each docs/ file's),
// against a freshly started sandbox.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killStragglers, PROCESS_TEST_TIMEOUT, startServer, stopServer, tempStore, type ServerProcess } from '../durability/server-process.js';
import { documents, scriptOf, shellBlocks } from './readme-blocks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** Every shell block of README.md and docs/*.md, in the order a reader of the README and then of docs/ meets them. */
const allBlocks = () => documents(ROOT).flatMap(({ file, text }) => shellBlocks(text, file));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

describe('README and docs/', () => {
  const store = tempStore();
  let server: ServerProcess & { url: string };

  beforeAll(async () => {
    // As the README's first block starts it (one process on a data file; here from the sources, as npm start runs them:
    // test/package/registry-publish.test.ts runs the walk-through against the published package), on a port of its own.
    server = await startServer(store.file, { PORT: String(await freePort()), LOG_LEVEL: 'warn' });
  }, PROCESS_TEST_TIMEOUT);

  afterAll(async () => {
    if (server) await stopServer(server);
    killStragglers();
    store.cleanup();
  });

  it('When its blocks are parsed, then the first one installs and starts the sandbox and the rest are run here', () => {
    const blocks = shellBlocks(README);
    expect(blocks[0].startsTheSandbox).toBe(true);
    expect(blocks[0].code).toMatch(/^npx commerce-operations-sandbox /);
    expect(blocks.filter((b) => !b.startsTheSandbox).length).toBeGreaterThanOrEqual(4);
    // Only the README's first block starts the sandbox; the docs' blocks run against the one it started.
    expect(allBlocks().filter((b) => b.startsTheSandbox)).toEqual([blocks[0]]);
    expect(new Set(allBlocks().map((b) => b.file)).size).toBeGreaterThan(1);
  });

  it(
    'When every shell block runs as written, in order, against a fresh sandbox, then each command succeeds',
    async () => {
      const script = scriptOf(allBlocks());
      const run = spawn('bash', ['-c', script], {
        cwd: ROOT,
        env: { ...process.env, SANDBOX: server.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      run.stdout.on('data', (c: Buffer) => (out += c.toString()));
      run.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((resolve) => run.on('exit', resolve));
      // On a failure the ERR trap names the block and the command (stderr), and stdout shows the last answers.
      expect({ code, stderr: err.slice(-3000) }, `output ends with:\n${out.slice(-2000)}`).toEqual({
        code: 0,
        stderr: expect.not.stringMatching(/README block at/),
      });
      // Nothing a reader sends gives a 5xx.
      expect(out).not.toMatch(/Server Error/);
      expect(server.stderr()).not.toMatch(/\b500\b/);
    },
    PROCESS_TEST_TIMEOUT,
  );

  it('When a block calls the sandbox, then it goes through $B, so the test (and a reader with SANDBOX set) reaches the one it started', () => {
    // A block naming a fixed origin passes on a machine where something already listens there and fails everywhere else.
    const fixed = allBlocks()
      .filter((b) => !b.startsTheSandbox)
      .flatMap((b) => b.code.split('\n').map((text, i) => ({ at: `${b.file}:${b.line + 1 + i}`, text })))
      .filter(({ text }) => /(localhost|127\.0\.0\.1):\d+/.test(text) && !/\$\{SANDBOX:-/.test(text));
    expect(fixed).toEqual([]);
  });

  it('When bash checks the blocks, then none has a syntax error', () => {
    const check = spawnSync('bash', ['-n', '-c', scriptOf(allBlocks())], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
  });
});
