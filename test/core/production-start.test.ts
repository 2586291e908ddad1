import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';

/** Starts `node dist/src/main.js` (what the Dockerfile runs) and resolves with its URL once it listens. */
function startBuilt(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [join(projectRoot, 'dist/src/main.js')], { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
  it('When the built server starts (npm run build, then node dist/src/main.js), then health answers 200 and SIGTERM exits cleanly', async () => {
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
