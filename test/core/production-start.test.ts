import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';

/** Starts `node dist/server.js` (what the Dockerfile runs) and resolves with its URL once it listens. */
function startBuilt(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [join(projectRoot, 'dist/server.js')], { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, url, output: () => output };
}

describe('the production start command', () => {
  it('When the built server starts (npm run build, then node dist/server.js), then it serves the API, the docs and the contract, and SIGTERM exits cleanly', async () => {
    execFileSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'pipe' });
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-prod-'));
    const server = startBuilt({ PORT: '0', HOST: '127.0.0.1', DATA_FILE: join(dir, 'sandbox.json'), NODE_ENV: 'production' });
    try {
      const url = await server.url;
      const health = await fetch(`${url}/_sandbox/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', store: 'file' });
      const me = await fetch(`${url}/2024-09/users/current`, { headers: { Authorization: 'Bearer demo-owner-token' } });
      expect(me.status).toBe(200);
      // The bundle keeps what it cannot hold outside: Swagger UI's asset files and the lazily loaded YAML writer.
      const docs = await fetch(`${url}/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger-ui');
      const asset = await fetch(`${url}/docs/swagger-ui-bundle.js`);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
      const yaml = await fetch(`${url}/openapi.yaml`);
      expect(await yaml.text()).toMatch(/^openapi: 3\.1/m);
      // The validator, tuned and bundled, still checks requests (422) and answers (201 with the contract's shape).
      const create = (body: object) =>
        fetch(`${url}/2024-09/products`, {
          method: 'POST',
          headers: { Authorization: 'Bearer demo-owner-token', 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
      const created = await create({ merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', sku: 'PROD-START-1', title: 'Built' });
      expect(created.status).toBe(201);
      expect(((await created.json()) as { data: { sku: string } }).data.sku).toBe('PROD-START-1');
      const refused = await create({ merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', title: 'No sku' });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({ errors: { sku: expect.any(Array) } });
      const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
      server.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(server.output()).toMatch(/SIGTERM/);
    } finally {
      server.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
