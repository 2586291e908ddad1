// One artifact: the tarball `npm publish` publishes is what a user's install and the image run, the validator's patch
// (patches/) included, with no install script. The image's install is the Dockerfile's own command, run here in an
// empty folder with --ignore-scripts as it is there; then the patched validator is shown at work in that folder.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { consumerOf, packThisCheckout, runIn, type Packed } from '../helpers/packed-package.js';
import { releasedBy, startServerProcess, userEnv, type ServerProcess } from '../helpers/server-process.js';

const OWNER = { Authorization: 'Bearer demo-owner-token' };
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const DOCKERFILE = readFileSync(join(projectRoot, 'Dockerfile'), 'utf8');

/** The Dockerfile's install of the packed tarball (its second stage), as argv. */
function imageInstall(tarball: string): string[] {
  const line = /^RUN (npm install [^\n]*\/pack\/commerce-operations-sandbox-\*\.tgz)/m.exec(DOCKERFILE)?.[1];
  if (!line) throw new Error('the Dockerfile installs no packed tarball');
  return line.split(/\s+/).map((word) => (word === '/pack/commerce-operations-sandbox-*.tgz' ? tarball : word));
}

/**
 * Behaviour of the patched validator (patches/README.md, the spec's preparation): a component schema Ajv cannot
 * compile is reported when an operation that uses it is first validated, not while the spec is prepared. Unpatched,
 * preparation compiles it, and every operation answers that error. The build bundles the validator into the package's
 * dist/ (src/build/transpile.mjs, BUNDLED_PACKAGES), so the probe reaches it as a user's code can: through the
 * package's own API (compileContract, whose `validator` is the validator's middleware over the document given), on
 * the express the package depends on; it prints each path's status and message.
 */
const PROBE = `
const express = (await import('express')).default;
const { compileContract } = await import('commerce-operations-sandbox');
const json = (ref) => ({ description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/' + ref } } } });
const get = (operationId, ref) => ({ get: { operationId, 'x-sandbox-access': 'anyone', responses: { 200: json(ref) } } });
const doc = {
  openapi: '3.1.0',
  info: { title: 'probe', version: '1' },
  paths: { '/fine': get('fine', 'Fine'), '/broken': get('broken', 'Broken') },
  components: { schemas: { Fine: { type: 'object' }, Broken: { type: 'string', pattern: '(' } } },
};
const app = express();
app.use(compileContract({ text: JSON.stringify(doc), doc }).validator);
app.get('/fine', (req, res) => res.json({}));
app.get('/broken', (req, res) => res.json('x'));
app.use((err, req, res, next) => res.status(500).json({ message: err.message }));
const server = app.listen(0, '127.0.0.1', async () => {
  const answers = {};
  for (const path of ['/fine', '/broken']) {
    const res = await fetch('http://127.0.0.1:' + server.address().port + path);
    answers[path] = [res.status, (await res.json()).message ?? null];
  }
  console.log(JSON.stringify(answers));
  server.close();
});
`;

/** Every folder named `name` under `dir`, relative. */
function foldersNamed(dir: string, name: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => basename(f) === name && statSync(join(dir, f)).isDirectory());
}

let packed: Packed;
let image: string;
let installOutput: string;
const started: ServerProcess[] = [];

beforeAll(async () => {
  packed = await packThisCheckout('sandbox-artifact-');
  image = consumerOf(packed, 'image', { name: 'image', private: true }, false);
  const [command, ...args] = imageInstall(packed.tarball);
  expect(args).toContain('--ignore-scripts');
  runIn(image, command!, args);
  // A user's plain `npm install <package>` (scripts allowed), in another empty folder, with npm's warnings shown.
  const user = consumerOf(packed, 'user', { name: 'user', private: true }, false);
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', packed.tarball], {
    cwd: user,
    env: userEnv(),
    encoding: 'utf8',
    timeout: 180_000,
  });
  expect(install.status).toBe(0);
  installOutput = install.stdout + install.stderr;
}, 300_000);

afterEach(() => {
  for (const server of started.splice(0)) server.child.kill('SIGKILL');
});
afterAll(() => packed?.cleanup());

const installed = () => join(image, 'node_modules', 'commerce-operations-sandbox');

describe('The packed package, installed with --ignore-scripts as the image installs it', () => {
  it("When an operation's component schema cannot compile, then the installed validator still prepares the spec and reports it only on that operation (the patch at work)", () => {
    const out = runIn(image, process.execPath, ['--input-type=module', '-e', PROBE]);
    expect(JSON.parse(out)).toEqual({
      '/fine': [200, null],
      '/broken': [500, expect.stringContaining('Invalid regular expression')],
    });
  });

  it('When the install is searched for the validator, then it holds no copy of its own: the one it runs is in the build', () => {
    expect(foldersNamed(join(image, 'node_modules'), 'express-openapi-validator')).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty('bundleDependencies');
    expect(manifest).not.toHaveProperty('dependencies.express-openapi-validator');
  });

  it('When a user installs it with scripts allowed, then npm names no install script of the package, only the one of a dependency', () => {
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
    const warned = installOutput.split('\n').filter((line) => line.startsWith('npm warn'));
    expect(warned.filter((line) => line.includes('commerce-operations-sandbox'))).toEqual([]);
    // What remains is @scarf/scarf's postinstall (swagger-ui-express's dependency), which the README says how to silence.
    expect(warned.filter((line) => /@\w/.test(line)).map((line) => /(@[\w/.-]+)@/.exec(line)?.[1])).toEqual(['@scarf/scarf']);
  });

  // On the Node that runs the tests (CI: Node 24 and the lowest in engines). The validator reads a request's raw query
  // as url.parse() does; called from the build, url.parse() itself would be reported as deprecated (DEP0169) on Node 24.
  it("When the Dockerfile's start command runs where its install put the package, then it serves validated requests with no warning and its PID stops on SIGTERM", async () => {
    const [command, ...args] = JSON.parse(/^CMD (\[.*\])$/m.exec(DOCKERFILE)![1]!) as string[];
    const env = Object.fromEntries(
      [...DOCKERFILE.matchAll(/^ENV (.*)$/gm)].flatMap((m) => m[1]!.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
    );
    expect(env).toMatchObject({ NODE_ENV: 'production', DATA_FILE: '/data/sandbox.json' });
    // The image's environment, on a free loopback port and a data file of this test's; this Node first on PATH.
    const dataFile = join(packed.root, 'docker.json');
    const server = startServerProcess(command!, args, {
      cwd: image,
      env: { ...env, HOST: '127.0.0.1', PORT: '0', DATA_FILE: dataFile, PATH: `${dirname(process.execPath)}:${process.env.PATH}` },
    });
    started.push(server);
    const url = await server.url;
    expect((await fetch(`${url}/2024-09/users/current`, { headers: OWNER })).status).toBe(200);
    // A validated request with a query (the validator parses its URL then), answered before the output is read.
    expect((await fetch(`${url}/2024-09/products?merchant_id=${MERCHANT}&per_page=2`, { headers: OWNER })).status).toBe(200);
    const refused = await fetch(`${url}/2024-09/products`, {
      method: 'POST',
      headers: { ...OWNER, 'Content-Type': 'application/json' },
      body: JSON.stringify({ merchant_id: MERCHANT, title: 'No sku' }),
    });
    expect(refused.status).toBe(422);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await releasedBy(url, dataFile)).toBe(true);
    expect(server.output()).toMatch(/listening on/);
    expect(server.output()).not.toMatch(/Warning|DEP0/);
  }, 60_000);
});
