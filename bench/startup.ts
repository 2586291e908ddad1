// Start-up as a newcomer meets it: the time from the command to the first authenticated 200 (GET
// /2024-09/users/current), on a data file that does not exist yet (seeded on start), for each way of starting
// the sandbox, with and without the contract's parsed copy (src/contract/load-contract.ts). npm start's cases run
// `prepare`'s step first (untimed), as `npm ci` leaves a checkout; its "nothing prepared" reference also removes
// the bundle of the sources and the seeded world and code cache beside it (src/build/start-sources.mjs,
// src/seed-snapshot.ts, src/build/run-bundle.mjs). The built server and the bin keep what the build makes beside
// dist/server.cjs. Bare Node, started in the same rounds, shows what this machine pays for any start at the time.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parsedCopyPaths, writeShippedCopy } from '../src/contract/load-contract.js';
import { bareAnswerScript, freePort, OWNER_TOKEN, ROOT, startProcess } from './servers.js';

export interface StartupCase {
  key: string;
  label: string;
  command: string;
  args: string[];
  /** What is removed before each start: the parsed contract copies, or everything `prepare` makes for npm start too. */
  remove: 'nothing' | 'parsed-copy' | 'everything';
  /** The target for the median (ms); none for a reference. */
  targetMs?: number;
}

const NODE = process.execPath;
const BUILT = ['dist/server.js'];
const BIN = ['bin/commerce-operations-sandbox.js'];
// Node itself, started the same way to its first 200: what any server pays on this machine at this moment.
const FLOOR = ['-e', bareAnswerScript(64)];
/** The bare-Node case, which the report compares each start with in its round (bench/run.ts). */
export const FLOOR_KEY = 'node-floor';

/**
 * The newcomer issue's targets, each with and without the contract's parsed copy: npm start (after `npm ci`, whose
 * `prepare` makes the copy, the sources bundle, its seeded world and code cache) <= 600 ms; the built server (as the
 * Docker image runs it) and the bin (the file the package ships) <= 300 ms. Two references without a target: npm
 * start with nothing prepared (`npm ci --ignore-scripts`, or the first start after editing a source) and bare Node.
 */
export const STARTUP_CASES: StartupCase[] = [
  { key: 'npm-start.warm', label: '`npm start` after `npm ci` (parsed copy, sources bundle, its seeded world and code cache)', command: 'npm', args: ['start'], remove: 'nothing', targetMs: 600 },
  { key: 'npm-start.no-copy', label: '`npm start` after `npm ci`, without the parsed copy', command: 'npm', args: ['start'], remove: 'parsed-copy', targetMs: 600 },
  { key: 'built.warm', label: '`node dist/server.js`, with the parsed copy, seeded world and code cache the build makes', command: NODE, args: BUILT, remove: 'nothing', targetMs: 300 },
  { key: 'built.no-copy', label: '`node dist/server.js`, without the parsed copy', command: NODE, args: BUILT, remove: 'parsed-copy', targetMs: 300 },
  { key: 'bin.warm', label: 'the bin (bin/commerce-operations-sandbox.js, as packed), with the parsed copy, seeded world and code cache', command: NODE, args: BIN, remove: 'nothing', targetMs: 300 },
  { key: 'bin.no-copy', label: 'the bin, without the parsed copy', command: NODE, args: BIN, remove: 'parsed-copy', targetMs: 300 },
  { key: 'npm-start.fresh', label: 'reference: `npm start` with nothing prepared (`npm ci --ignore-scripts`, or the first start after an edit)', command: 'npm', args: ['start'], remove: 'everything' },
  { key: FLOOR_KEY, label: 'reference: bare Node (`node -e` with a node:http server answering 200)', command: NODE, args: FLOOR, remove: 'nothing' },
];

/** What `prepare` makes for npm start (its bundle and the seeded world beside it), made again if a fresh case removed it. */
function prepareSourcesBundle(): void {
  const run = spawnSync(process.execPath, ['src/build/start-sources.mjs', '--prepare'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`start-sources.mjs --prepare failed: ${run.stderr}`);
}

/** Starts and stops each case `rounds` times (interleaved), noting each start-up; restores the shipped copy after. */
export async function measureStartup(
  rounds: number,
  dir: string,
  note: (key: string, label: string, unit: string, value: number) => void,
  log: (line: string) => void,
): Promise<void> {
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const c of STARTUP_CASES) {
        // prepare's warm-up starts the server, which may write the parsed copy again (a second in): it goes first.
        if (c.remove === 'everything') rmSync(join(ROOT, 'dist', 'sources'), { recursive: true, force: true });
        else if (c.command === 'npm') prepareSourcesBundle();
        if (c.remove === 'nothing') {
          if (!existsSync(parsedCopyPaths()[0]!)) writeShippedCopy();
        } else {
          for (const copy of parsedCopyPaths()) rmSync(copy, { force: true });
        }
        const port = await freePort();
        const dataFile = join(dir, `startup-${c.key}-${round}.json`);
        const server = await startProcess({
          name: c.label,
          command: c.command,
          args: c.args,
          env: {
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_FILE: dataFile,
            STORE: 'file',
            LOG_LEVEL: 'warn',
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
      }
    }
  } finally {
    writeShippedCopy();
  }
}
