// Start-up as a newcomer meets it: the time from the command to the first authenticated 200 (GET
// /2024-09/users/current), on a data file that does not exist yet (seeded on start), for each way of starting the
// sandbox. All of them run the one start path, bin/commerce-operations-sandbox.js over the ESM build in dist/src,
// with Node's compile cache. What users run is the package installed from its tarball (`npm pack`, then `npm i
// --ignore-scripts` in an empty folder: installPacked), measured beside the checkout. "Cold" cases give each start an
// empty compile-cache folder (NODE_COMPILE_CACHE): what the first start of a fresh clone, a new install or a new
// container pays. The peers the issue judges by, json-server 1.0 and Prism 5.16 `mock` of openapi.yaml, and bare
// Node start in the same rounds, so the targets are ratios within one run on one machine.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bareAnswerScript, freePort, memoryOf, OWNER_TOKEN, ROOT, startProcess } from './servers.js';
import { VALIDATOR_OPTIONS } from '../src/compiled-contract.js';
import { BUNDLED_PACKAGES } from '../src/build/transpile.mjs';
import { installJsonServer } from './json-server.js';
import { installPrism, prismArgs } from './prism.js';

export interface StartupCase {
  key: string;
  label: string;
  /** The command and its arguments; `packed` is replaced by the installed package's bin. */
  command: string;
  args: string[];
  /** Each start gets an empty compile-cache folder. */
  coldCache?: boolean;
  /** What the first 200 is asked of, and with which headers (the sandbox's by default). */
  probe?: string;
  anonymous?: boolean;
  /** Noted with the RSS of its process at its first 200 (the command is the server's own process). */
  rss?: boolean;
  /** Runs in the bench's own npm package (npmFloorPackage) instead of this checkout. */
  inNpmFloorPackage?: boolean;
}

const BIN = join(ROOT, 'bin', 'commerce-operations-sandbox.js');
/** Stands for the bin of the package installed from its tarball (installPacked). */
const PACKED = 'packed';
// Node itself, started the same way to its first 200: what any server pays on this machine at this moment.
const FLOOR = ['-e', bareAnswerScript(64)];
/** The bare-Node case, which the report compares each start with in its round (bench/run.ts). */
export const FLOOR_KEY = 'node-floor';
/** The npm script of npmFloorPackage: bare Node as `npm start` runs the sandbox (`exec node <file>`). */
const NPM_FLOOR_SCRIPT = 'bare-node';

/**
 * A package of the bench's own whose one script starts the bare-Node server the way package.json's `start` starts the
 * sandbox: what that case adds to bare Node is npm's own cost, which `npm start` pays before the sandbox runs.
 */
function npmFloorPackage(dir: string): string {
  const folder = join(dir, 'npm-floor');
  mkdirSync(folder);
  writeFileSync(join(folder, 'bare-node.cjs'), bareAnswerScript(64));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'npm-floor', private: true, scripts: { [NPM_FLOOR_SCRIPT]: 'exec node bare-node.cjs' } }));
  return folder;
}

/**
 * The packages the built server imports (`from "pkg"` and `import "pkg"` in dist/src, node: built-ins left out), and
 * those the build bundled into it (BUNDLED_PACKAGES, loaded here from node_modules as they are published): what
 * bench/dependencies-floor.mjs loads. Read from the build, so the list follows the code.
 */
export function builtServerPackages(build = join(ROOT, 'dist', 'src'), bundled: readonly string[] = BUNDLED_PACKAGES): string[] {
  const specifiers = new Set<string>(bundled);
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
/** Stands for the port a case is to listen on, in its arguments. */
const PORT = 'port';
/** Stands for a peer's entry (installed by the benchmark) and for json-server's data file. */
const JSON_SERVER = 'json-server-bin';
const JSON_SERVER_DB = 'json-server-db';
const PRISM = 'prism-bin';

/** The keys of the cases the issue's ratios are judged on (bench/run.ts). */
export const STARTUP_KEYS = { installed: 'packed', checkout: 'built', npmStart: 'npm-start', jsonServer: 'json-server', prism: 'prism' } as const;

/**
 * The cases, the first three judged (bench/run.ts, issue 32): the bin of the package installed from its tarball, the
 * built server in the checkout (the bin over `npm run build`'s dist/), and npm start (it transpiles src/ with esbuild
 * when dist/ was not made from the sources as they are, src/build/start-checkout.mjs, then runs the bin), each against
 * json-server and Prism of the same round.
 */
export const STARTUP_CASES: StartupCase[] = [
  { key: STARTUP_KEYS.installed, label: 'the installed package (`npm i <tarball> --ignore-scripts`, then its bin)', command: PACKED, args: [], rss: true },
  {
    key: STARTUP_KEYS.checkout,
    label: 'the checkout build (`bin/commerce-operations-sandbox.js` over dist/)',
    command: process.execPath,
    args: [BIN],
    rss: true,
  },
  { key: STARTUP_KEYS.npmStart, label: '`npm start` in a checkout', command: 'npm', args: ['start'] },
  {
    key: STARTUP_KEYS.jsonServer,
    label: 'json-server 1.0 (a one-record db.json, GET /products)',
    command: process.execPath,
    args: [JSON_SERVER, '--port', PORT, JSON_SERVER_DB],
    probe: '/products',
    anonymous: true,
    rss: true,
  },
  { key: STARTUP_KEYS.prism, label: 'Prism 5.16 `mock` of openapi.yaml', command: process.execPath, args: [PRISM], rss: true },
  { key: 'packed.cold', label: 'reference: the installed package, first start (no compile cache yet)', command: PACKED, args: [], coldCache: true },
  {
    key: 'npm-start.fresh',
    label: 'reference: `npm start` with no compile cache yet (dist/ made from these sources)',
    command: 'npm',
    args: ['start'],
    coldCache: true,
  },
  {
    key: 'dependencies-floor',
    label: "reference: the server's dependencies alone (every package dist/src imports, loaded with the compile cache, then node:http answering 200)",
    command: process.execPath,
    args: [join(ROOT, 'bench', 'dependencies-floor.mjs'), BUILT_PACKAGES],
  },
  {
    // What the validator as shipped costs a start with this contract, before any of the sandbox's own work.
    key: 'validator-contract-floor',
    label: 'reference: express and express-openapi-validator given this contract, answering one validated request (bench/validator-floor.mjs)',
    command: process.execPath,
    args: [join(ROOT, 'bench', 'validator-floor.mjs'), join(ROOT, 'dist', 'openapi.json'), JSON.stringify(VALIDATOR_OPTIONS)],
  },
  {
    key: 'npm-run-floor',
    label: "reference: `npm run` of a script that starts bare Node (npm's own cost, which `npm start` pays first)",
    command: 'npm',
    args: ['run', NPM_FLOOR_SCRIPT],
    anonymous: true,
    inNpmFloorPackage: true,
  },
  { key: FLOOR_KEY, label: 'reference: bare Node (`node -e` with a node:http server answering 200)', command: process.execPath, args: FLOOR, anonymous: true },
];

/** The package installed from its tarball: its bin, and its folder (what a user's node_modules holds). */
export interface InstalledPackage {
  bin: string;
  root: string;
  /** The folder it was installed into (the consumer's project). */
  consumer: string;
  tarballBytes: number;
}

/** `npm pack` of this checkout's build (already made) installed in an empty folder, as a user installs it. */
export function installPacked(dir: string): InstalledPackage {
  const packs = join(dir, 'packs');
  const consumer = join(dir, 'consumer');
  mkdirSync(packs);
  mkdirSync(consumer);
  // --ignore-scripts: the build is there already (bench/run.ts builds first), prepack would make it again.
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packs], { cwd: ROOT, stdio: 'ignore' });
  const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: consumer, stdio: 'ignore' });
  return {
    bin: join(consumer, 'node_modules', '.bin', 'commerce-operations-sandbox'),
    root: join(consumer, 'node_modules', 'commerce-operations-sandbox'),
    consumer,
    tarballBytes: statSync(tarball).size,
  };
}

/** Starts and stops each case `rounds` times (interleaved), noting each start-up (and the RSS of the servers). */
export async function measureStartup(
  rounds: number,
  dir: string,
  installed: InstalledPackage,
  note: (key: string, label: string, unit: string, value: number) => void,
  log: (line: string) => void,
): Promise<void> {
  const builtPackages = builtServerPackages();
  log(`  the server's dependencies (the floor's imports): ${builtPackages.join(', ')}`);
  const jsonServer = installJsonServer();
  const prism = installPrism();
  const db = join(dir, 'startup-db.json');
  writeFileSync(db, JSON.stringify({ products: [{ id: '1', title: 'One' }] }));
  const unavailable = new Set<string>();
  if ('skipped' in jsonServer) {
    unavailable.add(STARTUP_KEYS.jsonServer);
    log(`  json-server skipped: ${jsonServer.skipped}`);
  }
  if ('skipped' in prism) {
    unavailable.add(STARTUP_KEYS.prism);
    log(`  Prism skipped: ${prism.skipped}`);
  }
  const cases = STARTUP_CASES.filter((c) => !unavailable.has(c.key));
  const npmFloor = npmFloorPackage(dir);
  for (let round = 1; round <= rounds; round++) {
    // Reversed every other round, so no case always follows the same one.
    for (const c of round % 2 ? cases : [...cases].reverse()) {
      const port = await freePort();
      const dataFile = join(dir, `startup-${c.key}-${round}.json`);
      const cache = c.coldCache ? mkdtempSync(join(dir, 'compile-cache-')) : undefined;
      const args = c.args.flatMap((arg) => {
        if (arg === BUILT_PACKAGES) return builtPackages;
        if (arg === PORT) return [String(port)];
        if (arg === JSON_SERVER && 'bin' in jsonServer) return [jsonServer.bin];
        if (arg === JSON_SERVER_DB) return [db];
        if (arg === PRISM && 'bin' in prism) return prismArgs(prism.bin, port);
        return [arg];
      });
      const server = await startProcess({
        name: c.label,
        command: c.command === PACKED ? installed.bin : c.command,
        args,
        cwd: c.command === PACKED ? installed.consumer : c.inNpmFloorPackage ? npmFloor : ROOT,
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_FILE: dataFile,
          STORE: 'file',
          LOG_LEVEL: 'warn',
          ...(cache ? { NODE_COMPILE_CACHE: cache } : {}),
        },
        port,
        probe: c.probe ?? '/2024-09/users/current',
        headers: c.anonymous ? {} : { Authorization: `Bearer ${OWNER_TOKEN}` },
      });
      note(`startup-first-200.${c.key}.ms`, `first authenticated 200, ${c.label}`, 'ms', server.readyMs);
      const rss = c.rss ? memoryOf(server.child.pid!).rssMb : NaN;
      if (c.rss) note(`startup-rss.${c.key}.mb`, `RSS at its first 200, ${c.label}`, 'MB', rss);
      const code = await server.stop();
      if (code !== 0 && c.key !== STARTUP_KEYS.prism) log(`  warning: ${c.label} exited ${code} after SIGTERM`);
      log(`  round ${round}: ${c.label}: ${server.readyMs.toFixed(0)} ms${c.rss ? `, RSS ${rss.toFixed(0)} MB` : ''}`);
      rmSync(dataFile, { force: true });
      if (cache) rmSync(cache, { recursive: true, force: true });
    }
  }
}
