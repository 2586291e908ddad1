// The publish path, end to end, against a real registry on loopback: verdaccio (a devDependency) with a temporary
// config and storage; `npm publish` of the packed tarball to it; then, in an empty folder with an empty npm cache,
// `npx commerce-operations-sandbox@<version>` from it starts and answers the README's first workflow. The registry
// serves this package name only from what was published to it (never from an uplink); other packages it proxies from
// the npm registry npm is configured with.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { packThisCheckout, type Packed } from '../helpers/packed-package.js';
import { accepts, eventually, freePort, startServerProcess, userEnv, type ServerProcess } from '../helpers/server-process.js';
import { shellBlocks } from '../readme/readme-blocks.js';

const { name, version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { name: string; version: string };
const README = readFileSync(join(projectRoot, 'README.md'), 'utf8');
const STEP_TIMEOUT = 240_000;

/** npm, run to completion with a deadline, as a user's shell runs it. */
function npm(args: string[], cwd: string) {
  const run = spawnSync('npm', args, { cwd, env: userEnv(), encoding: 'utf8', timeout: STEP_TIMEOUT });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

/** verdaccio's config: local storage; this package only as published here, everything else proxied. */
function registryConfig(root: string, upstream: string): string {
  return [
    `storage: ${JSON.stringify(join(root, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(root, 'htpasswd'))}`,
    '    max_users: 1',
    'uplinks:',
    '  upstream:',
    `    url: ${JSON.stringify(upstream)}`,
    '    timeout: 60s',
    'packages:',
    `  '${name}':`,
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    proxy: upstream',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

describe('The package published to a registry on loopback (verdaccio)', () => {
  let packed: Packed;
  let registry: ChildProcess | undefined;
  let registryUrl: string;
  let token: string;
  let sandbox: ServerProcess | undefined;
  let registryLog = '';

  beforeAll(async () => {
    packed = await packThisCheckout('sandbox-registry-');
    const root = join(packed.root, 'registry');
    mkdirSync(root);
    const upstream = npm(['config', 'get', 'registry'], packed.root).out.trim();
    writeFileSync(join(root, 'config.yaml'), registryConfig(root, upstream));
    const port = await freePort();
    registryUrl = `http://127.0.0.1:${port}/`;
    const bin = createRequire(join(projectRoot, 'package.json')).resolve('verdaccio/bin/verdaccio');
    registry = spawn(process.execPath, [bin, '--config', join(root, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
      cwd: root,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    registry.stdout!.on('data', (c: Buffer) => (registryLog += c.toString()));
    registry.stderr!.on('data', (c: Buffer) => (registryLog += c.toString()));
    const up = await eventually(async () => (await fetch(`${registryUrl}-/ping`).catch(() => undefined))?.ok === true, 60_000);
    expect(up, registryLog).toBe(true);
    // The registry's own user (npm adduser's request): the token npm publish authenticates with.
    const added = await fetch(`${registryUrl}-/user/org.couchdb.user:publisher`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'publisher', password: 'a-local-password' }),
    });
    expect(added.status).toBe(201);
    token = ((await added.json()) as { token: string }).token;
  }, STEP_TIMEOUT);

  /** Stops a process by SIGTERM, then SIGKILL after `graceMs`: npx hands SIGTERM on through its `sh -c` to the
   * sandbox, while a SIGKILL would stop npx alone and leave the shell and the sandbox running. */
  async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  afterAll(async () => {
    // Only when a test failed before stopping it.
    if (sandbox) {
      await stop(sandbox.child);
      const url = await sandbox.url.catch(() => undefined);
      if (url) await eventually(async () => !(await accepts(url)), 10_000);
    }
    if (registry) await stop(registry);
    packed?.cleanup();
  }, 30_000);

  it(
    'When the tarball is published there, then the registry holds this version with its bundled validator, and a second publish of it is refused',
    () => {
      const auth = `--${registryUrl.replace(/^http:/, '')}:_authToken=${token}`;
      // Provenance needs a CI provider's identity (the release workflow has it); a local publish turns it off.
      const published = npm(['publish', packed.tarball, '--registry', registryUrl, auth, '--provenance=false'], packed.root);
      expect(published, registryLog).toMatchObject({ code: 0 });
      const view = npm(['view', `${name}@${version}`, '--json', '--registry', registryUrl], packed.root);
      expect(view.code).toBe(0);
      const manifest = JSON.parse(view.out) as {
        version: string;
        bundleDependencies?: string[];
        dependencies: Record<string, string>;
        scripts: Record<string, string>;
      };
      expect(manifest.version).toBe(version);
      // The patched validator is in the build (src/build/transpile.mjs): the registry never serves it unpatched.
      expect(manifest.bundleDependencies).toBeUndefined();
      expect(manifest.dependencies).not.toHaveProperty('express-openapi-validator');
      expect(Object.keys(manifest.scripts).filter((s) => /^(pre|post)?(install|prepare)$/.test(s))).toEqual([]);
      const again = npm(['publish', packed.tarball, '--registry', registryUrl, auth, '--provenance=false'], packed.root);
      expect(again.code).not.toBe(0);
    },
    STEP_TIMEOUT,
  );

  it(
    "When `npx commerce-operations-sandbox@<version>` runs in an empty folder with an empty cache, then it starts from that registry and the README's first workflow runs against it",
    async () => {
      const empty = join(packed.root, 'empty');
      mkdirSync(empty);
      const args = ['--yes', `--registry=${registryUrl}`, `--cache=${join(packed.root, 'npm-cache')}`, `${name}@${version}`, '--in-memory', '--port', '0'];
      sandbox = startServerProcess('npx', args, { cwd: empty });
      const url = await sandbox.url;
      // The README's first workflow: its walk-through block, as written, with SANDBOX pointing at this sandbox.
      const walk = shellBlocks(README).find((b) => b.heading.startsWith('Walk-through'));
      expect(walk).toBeDefined();
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', walk!.code], { cwd: empty, env: userEnv({ SANDBOX: url }), encoding: 'utf8', timeout: 60_000 });
      expect({ code: run.status, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toContain('Channel connected');
      expect(run.stdout).toContain('AmazonOrderId'); // the relayed orders (the retailer's body, as text)
      // npx installed it without a warning of the package's own (a dependency's install script may be listed).
      expect(sandbox.output()).not.toMatch(/npm warn.*commerce-operations-sandbox/);
      // The version published here (the contract's info.version is the package's, on purpose).
      const contract = (await (await fetch(`${url}/openapi.json`)).json()) as { info: { version: string } };
      expect(contract.info.version).toBe(version);
      sandbox.child.kill('SIGTERM');
      await sandbox.exited;
      expect(await eventually(async () => !(await accepts(url)), 15_000)).toBe(true);
    },
    STEP_TIMEOUT,
  );
});
