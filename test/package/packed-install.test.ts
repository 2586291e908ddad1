import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { startSandbox } from '../../src/start-sandbox.js';
import { consumerOf, packThisCheckout, runIn, type Packed } from '../helpers/packed-package.js';
import { eventually, releasedBy, startServerProcess, userEnv, type ServerProcess } from '../helpers/server-process.js';

// The package as a stranger gets it: packed from a copy of this checkout, installed in an empty folder.
const OWNER = { Authorization: 'Bearer demo-owner-token' };
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

let packed: Packed;
let root: string;
let consumer: string;
let tarball: string;
const started: ServerProcess[] = [];

const run = (command: string, args: string[], cwd: string) => runIn(cwd, command, args);

beforeAll(async () => {
  packed = await packThisCheckout();
  ({ root, tarball } = packed);
  consumer = consumerOf(packed, 'consumer', { name: 'consumer', private: true, type: 'module' });
}, 300_000);

afterEach(() => {
  for (const server of started.splice(0)) server.child.kill('SIGKILL');
});
afterAll(() => packed?.cleanup());

const installed = () => join(consumer, 'node_modules', 'commerce-operations-sandbox');
const track = (server: ServerProcess) => (started.push(server), server);
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe('the packed package, installed in an empty folder', () => {
  it('When packed, then the tarball holds the built server, the typed API, the contract, fixtures and docs, and no sources, tests or node_modules', () => {
    const files = run('tar', ['-tzf', tarball], root)
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    for (const needed of [
      'bin/commerce-operations-sandbox.js',
      'dist/src/main.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/openapi.json',
      'dist/validator-spec.json',
      'dist/seeded-world.json',
      'openapi.yaml',
      'fixtures/identity.json',
      'docs/ci.md',
      'package.json',
    ]) {
      expect(files, needed).toContain(needed);
    }
    // The packages the build bundles (the patched validator among them) are inside dist/: the tarball carries no node_modules.
    expect(
      files.filter(
        (f) =>
          f.startsWith('node_modules/') ||
          f.startsWith('test/') ||
          f.startsWith('bench/') ||
          f.startsWith('src/') ||
          /\.ts$/.test(f.replace(/\.d\.ts$/, '')) ||
          f.endsWith('.map'),
      ),
    ).toEqual([]);
  });

  it('When installed, then the package runs no install script of its own and pulls no bundler, TypeScript or TypeScript runner', () => {
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    // The scripts npm runs when the package is installed as a dependency. `prepare` (the validator's patch file,
    // patches/README.md) runs only in a checkout or a git dependency, where the dev tools are installed.
    const installScripts = ['preinstall', 'install', 'postinstall'];
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => installScripts.includes(name))).toEqual([]);
    const modules = readdirSync(join(consumer, 'node_modules'));
    for (const buildTool of ['esbuild', '@esbuild', 'tsx', 'typescript', 'vitest']) expect(modules, buildTool).not.toContain(buildTool);
  });

  it('When `npx commerce-operations-sandbox --in-memory --port 0` runs there, then it serves the API and SIGTERM to npx stops it', async () => {
    const server = track(startServerProcess('npx', ['commerce-operations-sandbox', '--in-memory', '--port', '0'], { cwd: consumer }));
    const url = await server.url;
    expect((await fetch(`${url}/2024-09/users/current`, { headers: OWNER })).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.exited;
    // npx runs the bin through `sh -c`; the server sees its parent go and stops on its own.
    expect(await eventually(async () => releasedBy(url, join(root, 'no-data-file')))).toBe(true);
    // It wrote nothing inside the installed package (Node's compile cache lives in the temporary folder): the
    // installed folder holds exactly the tarball's files.
    const packedFiles = run('tar', ['-tzf', tarball], root)
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    const present = readdirSync(installed(), { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(installed(), f)).isFile());
    expect(present.sort()).toEqual(packedFiles.sort());
  }, 60_000);

  it('When the bin is started on a data file and its PID gets SIGTERM, then it exits 0, frees the port and the lock, and starts again on the same file', async () => {
    const dataFile = join(root, 'sandbox.json');
    const bin = join(consumer, 'node_modules', '.bin', 'commerce-operations-sandbox');
    const first = track(startServerProcess(bin, ['--data', dataFile, '--port', '0'], { cwd: consumer, env: { NODE_ENV: 'production' } }));
    const url = await first.url;
    expect(await json(await fetch(`${url}/_sandbox/health`))).toMatchObject({ status: 'ok', store: 'file' });
    // What the server loads from its dependencies' folders: Swagger UI's asset files and the lazily loaded YAML writer.
    const docs = await fetch(`${url}/docs/`);
    expect(await docs.text()).toContain('swagger-ui');
    expect((await (await fetch(`${url}/docs/swagger-ui-bundle.js`)).arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect(await (await fetch(`${url}/openapi.yaml`)).text()).toMatch(/^openapi: 3\.1/m);
    // The validator checks requests (422) and answers (201 in the contract's shape).
    const create = (body: object) =>
      fetch(`${url}/2024-09/products`, { method: 'POST', headers: { ...OWNER, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const created = await create({ merchant_id: MERCHANT, sku: 'PACKED-1', title: 'Packed' });
    expect(created.status).toBe(201);
    const refused = await create({ merchant_id: MERCHANT, title: 'No sku' });
    expect(await json(refused)).toMatchObject({ errors: { sku: expect.any(Array) } });

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(await releasedBy(url, dataFile)).toBe(true);
    const second = track(startServerProcess(bin, ['--data', dataFile, '--port', '0'], { cwd: consumer }));
    const again = await second.url;
    const kept = await fetch(`${again}/2024-09/products?merchant_id=${MERCHANT}&per_page=100`, { headers: OWNER });
    expect(JSON.stringify(await kept.json())).toContain('PACKED-1');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('When the bin is started with --load run.json, then the default world is the exported one (records, journal marked loaded, the docs on it); a bundle it cannot load exits 2 naming why', async () => {
    // The run a CI job exports: a workspace of a sandbox from this checkout (the same contract the package ships).
    const source = await startSandbox({ logLevel: 'silent' });
    let bundle: Record<string, unknown>;
    let product: string;
    try {
      const ws = source.createWorkspace();
      const auth = { Authorization: `Bearer ${ws.tokens.owner}`, 'Content-Type': 'application/json' };
      const made = await fetch(`${source.url}/2024-09/products`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ merchant_id: MERCHANT, sku: 'CI-RUN-1', title: 'From CI' }),
      });
      product = ((await made.json()) as { data: { id: string } }).data.id;
      bundle = (await (await fetch(`${source.url}/_sandbox/workspaces/${ws.id}/export`, { headers: auth })).json()) as Record<string, unknown>;
    } finally {
      await source.close();
    }
    const runFile = join(root, 'run.json');
    writeFileSync(runFile, JSON.stringify(bundle));
    const bin = join(consumer, 'node_modules', '.bin', 'commerce-operations-sandbox');
    const server = track(startServerProcess(bin, ['--load', runFile, '--port', '0'], { cwd: consumer }));
    const url = await server.url;
    const got = await fetch(`${url}/2024-09/products/${product}`, { headers: OWNER });
    expect(await json(got)).toMatchObject({ data: { id: product, sku: 'CI-RUN-1' } });
    const journal = (await json(await fetch(`${url}/_sandbox/requests`))).data as { path: string; loaded?: boolean }[];
    // The run's request, marked loaded, after the one just made here.
    expect(journal.map((e) => [e.path, e.loaded])).toEqual([
      [`/2024-09/products/${product}`, undefined],
      ['/2024-09/products', true],
    ]);
    // The docs page opens on the default world, with its demo token filled in: the loaded world.
    expect(await (await fetch(`${url}/docs/`)).text()).toContain('demo-owner-token');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const badFile = join(root, 'bad-run.json');
    writeFileSync(badFile, JSON.stringify({ ...bundle, format_version: 2 }));
    const refused = spawnSync(bin, ['--load', badFile, '--port', '0'], { cwd: consumer, env: userEnv(), encoding: 'utf8', timeout: 60_000 });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('format_version: The bundle format version 2 is unknown; this sandbox reads version 1.');
    const missing = spawnSync(bin, ['--load', join(root, 'nothing.json'), '--port', '0'], { cwd: consumer, env: userEnv(), encoding: 'utf8', timeout: 60_000 });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nothing\.json: cannot read the bundle \(ENOENT\)/);
  }, 120_000);

  it("When a TypeScript file imports startSandbox from 'commerce-operations-sandbox', then it type-checks against the package's types and runs", () => {
    writeFileSync(
      join(consumer, 'check.ts'),
      [
        "import { startSandbox, type RunningSandbox } from 'commerce-operations-sandbox';",
        "const sandbox: RunningSandbox = await startSandbox({ store: 'memory', logLevel: 'silent' });",
        'const url: string = sandbox.url;',
        '// @ts-expect-error the port is a number: fails as an unused directive if the types were any',
        "void startSandbox({ port: 'eighty' });",
        'export { url };',
      ].join('\n'),
    );
    const tsconfig = {
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
      files: ['check.ts'],
    };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig));
    run(process.execPath, [join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], consumer);

    writeFileSync(
      join(consumer, 'check.mjs'),
      [
        "import { startSandbox } from 'commerce-operations-sandbox';",
        "const sandbox = await startSandbox({ store: 'memory', logLevel: 'silent' });",
        "const res = await fetch(sandbox.url + '/2024-09/users/current', { headers: { Authorization: 'Bearer ' + sandbox.tokens.owner } });",
        'console.log(res.status);',
        'await sandbox.close();',
      ].join('\n'),
    );
    expect(run(process.execPath, ['check.mjs'], consumer).trim()).toBe('200');
  }, 60_000);
});
