// Start-up as a newcomer meets it: the time from the command to the first authenticated 200 (GET
// /2024-09/users/current), on a data file that does not exist yet (seeded on start), for each way of starting the
// sandbox. All of them run the one start path, bin/commerce-operations-sandbox.js over the ESM build in dist/src,
// with Node's compile cache. "Cold" cases give each start an empty compile-cache folder (NODE_COMPILE_CACHE): what
// the first start of a fresh clone, a new install or a new container pays. Bare Node, started in the same rounds,
// shows what this machine pays for any start at the time.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bareAnswerScript, freePort, OWNER_TOKEN, ROOT, startProcess } from './servers.js';
import { VALIDATOR_OPTIONS } from '../src/compiled-contract.js';

export interface StartupCase {
  key: string;
  label: string;
  /** The command and its arguments; `packed` is replaced by the installed package's bin. */
  command: string;
  args: string[];
  /** Each start gets an empty compile-cache folder. */
  coldCache?: boolean;
  /** The target for the median (ms); none for a reference. */
  targetMs?: number;
}

const BIN = join(ROOT, 'bin', 'commerce-operations-sandbox.js');
/** Stands for the bin of the package installed from its tarball (installPacked). */
const PACKED = 'packed';
// Node itself, started the same way to its first 200: what any server pays on this machine at this moment.
const FLOOR = ['-e', bareAnswerScript(64)];
/** The bare-Node case, which the report compares each start with in its round (bench/run.ts). */
export const FLOOR_KEY = 'node-floor';

/**
 * The packages the built server imports (`from "pkg"` and `import "pkg"` in dist/src, node: built-ins left out):
 * what bench/dependencies-floor.mjs loads. Read from the build, so the list follows the code.
 */
export function builtServerPackages(build = join(ROOT, 'dist', 'src')): string[] {
  const specifiers = new Set<string>();
  for (const file of readdirSync(build, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js')) continue;
    for (const [, specifier] of readFileSync(join(build, file), 'utf8').matchAll(/^(?:import|export)\s*(?:[^'";]*?\bfrom\s*)?["']([^"'./][^"']*)["']/gm)) {
      if (!specifier!.startsWith('node:')) specifiers.add(specifier!);
    }
  }
  return [...specifiers].sort();
}
/** Stands for the packages of builtServerPackages, read once the build is there. */
const BUILT_PACKAGES = 'built-packages';

/**
 * The issue's targets: npm start in a checkout (it transpiles src/ with esbuild, then runs the bin) <= 600 ms, on
 * a fresh clone too (no compile cache yet); the built server (the bin over `npm run build`'s dist/, as the Docker
 * image runs it) and the bin of the packed package installed in an empty folder <= 300 ms.
 */
export const STARTUP_CASES: StartupCase[] = [
  { key: 'npm-start', label: '`npm start` in a checkout', command: 'npm', args: ['start'], targetMs: 600 },
  { key: 'npm-start.fresh', label: '`npm start` on a fresh clone (no compile cache yet)', command: 'npm', args: ['start'], coldCache: true, targetMs: 600 },
  {
    key: 'built',
    label: 'the built server (`bin/commerce-operations-sandbox.js` over dist/, the Docker command)',
    command: process.execPath,
    args: [BIN],
    targetMs: 300,
  },
  { key: 'packed', label: 'the packed bin (`npm i <tarball>`, then its bin)', command: PACKED, args: [], targetMs: 300 },
  { key: 'packed.cold', label: 'reference: the packed bin, first start (no compile cache yet)', command: PACKED, args: [], coldCache: true },
  {
    key: 'dependencies-floor',
    label: "reference: the server's dependencies alone (every package dist/src imports, loaded with the compile cache, then node:http answering 200)",
    command: process.execPath,
    args: [join(ROOT, 'bench', 'dependencies-floor.mjs'), BUILT_PACKAGES],
  },
  {
    // The two libraries no start can do without (the user's chosen framework and validator), and nothing else.
    key: 'validator-floor',
    label: 'reference: express and express-openapi-validator alone (loaded with the compile cache, then node:http answering 200)',
    command: process.execPath,
    args: [join(ROOT, 'bench', 'dependencies-floor.mjs'), 'express', 'express-openapi-validator'],
  },
  {
    // What the validator as shipped costs a start with this contract, before any of the sandbox's own work.
    key: 'validator-contract-floor',
    label: 'reference: express and express-openapi-validator given this contract, answering one validated request (bench/validator-floor.mjs)',
    command: process.execPath,
    args: [join(ROOT, 'bench', 'validator-floor.mjs'), join(ROOT, 'dist', 'openapi.json'), JSON.stringify(VALIDATOR_OPTIONS)],
  },
  { key: FLOOR_KEY, label: 'reference: bare Node (`node -e` with a node:http server answering 200)', command: process.execPath, args: FLOOR },
];

/** `npm pack` of this checkout's build (already made) installed in an empty folder; answers the installed bin. */
function installPacked(dir: string): string {
  const packs = join(dir, 'packs');
  const consumer = join(dir, 'consumer');
  mkdirSync(packs);
  mkdirSync(consumer);
  // --ignore-scripts: the build is there already (bench/run.ts builds first), prepack would make it again.
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packs], { cwd: ROOT, stdio: 'ignore' });
  const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: consumer, stdio: 'ignore' });
  return join(consumer, 'node_modules', '.bin', 'commerce-operations-sandbox');
}

/** Starts and stops each case `rounds` times (interleaved), noting each start-up. */
export async function measureStartup(
  rounds: number,
  dir: string,
  note: (key: string, label: string, unit: string, value: number) => void,
  log: (line: string) => void,
): Promise<void> {
  const packedBin = installPacked(dir);
  const builtPackages = builtServerPackages();
  log(`  the server's dependencies (the floor's imports): ${builtPackages.join(', ')}`);
  for (let round = 1; round <= rounds; round++) {
    for (const c of STARTUP_CASES) {
      const port = await freePort();
      const dataFile = join(dir, `startup-${c.key}-${round}.json`);
      const cache = c.coldCache ? mkdtempSync(join(dir, 'compile-cache-')) : undefined;
      const server = await startProcess({
        name: c.label,
        command: c.command === PACKED ? packedBin : c.command,
        args: c.args.flatMap((arg) => (arg === BUILT_PACKAGES ? builtPackages : [arg])),
        cwd: c.command === PACKED ? join(dir, 'consumer') : ROOT,
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_FILE: dataFile,
          STORE: 'file',
          LOG_LEVEL: 'warn',
          ...(cache ? { NODE_COMPILE_CACHE: cache } : {}),
        },
        port,
        probe: '/2024-09/users/current',
        headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
      });
      note(`startup-first-200.${c.key}.ms`, `first authenticated 200, ${c.label}`, 'ms', server.readyMs);
      const code = await server.stop();
      if (code !== 0) log(`  warning: ${c.label} exited ${code} after SIGTERM`);
      log(`  round ${round}: ${c.label}: ${server.readyMs.toFixed(0)} ms`);
      rmSync(dataFile, { force: true });
      if (cache) rmSync(cache, { recursive: true, force: true });
    }
  }
}
