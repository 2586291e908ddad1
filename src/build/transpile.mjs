// How `npm run build` and `npm start` make dist/ from src/: esbuild bundles each entry, the code entries share split
// into chunks, the dependencies a start loads bundled with them (BUNDLED_PACKAGES) and the others left in
// node_modules; then the built scripts write the contract's JSON copy (dist/openapi.json), the validator's spec
// prepared from it (dist/validator-spec.json) and the default seed's world (dist/seeded-world.json), which a start
// reads instead of parsing the YAML, preparing the spec and seeding. Last, dist/.sources names the sources it was
// made from (sourcesDigest), so that `npm start` transpiles again only after they change.
// Plain JavaScript: npm start runs it before anything is built. `node src/build/transpile.mjs` transpiles.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The entries under src/: the CLI, the seeding thread's worker, the client CLI, the library, the build's two writers. */
export const ENTRIES = [
  'src/main.ts',
  'src/seed-worker.ts',
  'src/cli/client-main.ts',
  'src/index.ts',
  'src/build/write-contract-json.ts',
  'src/build/write-seeded-world.ts',
];
/**
 * The packages bundled into dist/src with the code that imports them, with every file they require: what a start
 * loads, which would otherwise be some 400 CommonJS files, each resolved, read and compiled on its own. The validator
 * among them is the patched copy in node_modules (patches/), so the build carries the patch wherever dist/ goes: the
 * package and the image need no copy of it and no install script. Its patch replaces url.parse(), which Node 24
 * reports (DEP0169) when code outside node_modules calls it, as bundled code is, and loads express only for operation
 * handlers, which the sandbox does not use. Left in node_modules: what is loaded after the start or in a thread of
 * its own (swagger-ui-express serves files of its package, pino's transports, multer, js-yaml, faker).
 */
export const BUNDLED_PACKAGES = [
  'express',
  'express-openapi-validator',
  'ajv',
  'ajv-formats',
  'path-to-regexp',
  'cors',
  'helmet',
  'lowdb',
  'p-limit',
  'rate-limiter-flexible',
];
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
/** A package stays external unless it is bundled or a bundled package's own file requires it (what express needs). */
const bundledPackagesOnly = {
  name: 'bundled-packages-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED_PACKAGES.includes(packageName(args.path)) || relative(ROOT, args.importer).split(sep)[0] === 'node_modules' ? undefined : { external: true },
    );
  },
};
/** esbuild's options for them (test/helpers/build-entries.ts builds a test run's entries with the same). */
export const BUILD_OPTIONS = {
  bundle: true,
  splitting: true,
  plugins: [bundledPackagesOnly],
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'warning',
  // The bundled CommonJS files require Node's modules; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
};
/** The built scripts run after transpiling, in this order. */
const WRITERS = ['dist/src/build/write-contract-json.js', 'dist/src/build/write-seeded-world.js'];
const STAMP = join(ROOT, 'dist', '.sources');
// What the build reads: src/, tsconfig.json (how esbuild compiles classes and imports), openapi.yaml (the
// contract's JSON copy is made from it), and what decides the bundled packages' files: the lockfile's versions and
// the patches applied to them.
const INPUTS = ['src', 'tsconfig.json', 'openapi.yaml', 'package-lock.json', 'patches'];

/**
 * A digest of every file and folder the build reads (path, size, modification time): an edit, a new file, a removed
 * one or a checkout of other sources changes it. Statting the few hundred files costs a few milliseconds.
 */
export function sourcesDigest() {
  const hash = createHash('sha256');
  const visit = (path) => {
    const stat = statSync(join(ROOT, path));
    hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    if (stat.isDirectory()) for (const name of readdirSync(join(ROOT, path)).sort()) visit(join(path, name));
  };
  for (const input of INPUTS) visit(input);
  return hash.digest('hex');
}

/** Whether dist/ holds every entry and its writers' files, made from the sources as they are now. */
export function builtFromTheseSources() {
  const outputs = [
    ...ENTRIES.map((entry) => entry.replace(/^src\//, 'dist/src/').replace(/\.ts$/, '.js')),
    'dist/openapi.json',
    'dist/validator-spec.json',
    'dist/seeded-world.json',
  ];
  return existsSync(STAMP) && outputs.every((output) => existsSync(join(ROOT, output))) && readFileSync(STAMP, 'utf8') === sourcesDigest();
}

/** Transpiles src/ into dist/src, runs the writers, and notes the sources it was made from. */
export async function transpile() {
  // Taken first: a file saved while esbuild reads makes the next start transpile again.
  const digest = sourcesDigest();
  const { build } = await import('esbuild');
  await build({ ...BUILD_OPTIONS, absWorkingDir: ROOT, entryPoints: ENTRIES, outdir: 'dist/src', outbase: 'src' });
  for (const writer of WRITERS) {
    const run = spawnSync(process.execPath, [join(ROOT, writer)], { cwd: ROOT, stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`${writer} failed (exit ${run.status ?? run.signal})`);
  }
  writeFileSync(STAMP, digest);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await transpile();
