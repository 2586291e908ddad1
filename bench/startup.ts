// Start-up as a newcomer meets it: the time from the command to the first authenticated 200 (GET
// /2024-09/users/current), on a data file that does not exist yet (seeded on start), for each way of starting
// the sandbox, with and without the contract's parsed copy (src/contract/load-contract.ts). For `npm start`,
// "nothing prepared" also removes its bundle of the sources and the seeded world and code cache beside it
// (src/build/start-sources.mjs, src/seed-snapshot.ts, src/build/run-bundle.mjs), which `prepare` makes on `npm ci`:
// the first start after `npm ci --ignore-scripts`, or after editing a source. "After npm ci" runs `prepare`'s step
// again first (untimed). The built server and the bin keep what the build makes beside dist/server.cjs.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parsedCopyPaths, writeShippedCopy } from '../src/contract/load-contract.js';
import { freePort, OWNER_TOKEN, ROOT, startProcess } from './servers.js';

export interface StartupCase {
  key: string;
  label: string;
  command: string;
  args: string[];
  /** Remove the parsed contract copies (and npm start's bundle of the sources) before starting. */
  fresh: boolean;
}

/** npm start, the built server (as the Docker image runs it) and the bin (the file the package ships), fresh and warm. */
export const STARTUP_CASES: StartupCase[] = [
  { key: 'npm-start.fresh', label: '`npm start`, nothing prepared (no parsed copy, no sources bundle, seeded world or code cache)', command: 'npm', args: ['start'], fresh: true },
  { key: 'npm-start.warm', label: '`npm start` after `npm ci` (parsed copy, sources bundle, its seeded world and code cache)', command: 'npm', args: ['start'], fresh: false },
  { key: 'built.fresh', label: '`node dist/server.js`, no parsed copy (with the seeded world and code cache the build makes)', command: process.execPath, args: ['dist/server.js'], fresh: true },
  { key: 'built.warm', label: '`node dist/server.js`, with the parsed copy, seeded world and code cache the build makes', command: process.execPath, args: ['dist/server.js'], fresh: false },
  { key: 'bin.warm', label: 'the bin (bin/commerce-operations-sandbox.js, as packed), with the parsed copy, seeded world and code cache', command: process.execPath, args: ['bin/commerce-operations-sandbox.js'], fresh: false },
];

/** Targets of the newcomer issue: first authenticated 200 within these, medians. */
export const STARTUP_TARGETS_MS: Record<string, number> = { 'npm-start': 600, built: 300, bin: 300 };

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
        if (c.fresh) {
          for (const copy of parsedCopyPaths()) rmSync(copy, { force: true });
          if (c.command === 'npm') rmSync(join(ROOT, 'dist', 'sources'), { recursive: true, force: true });
        } else {
          if (!existsSync(parsedCopyPaths()[0]!)) writeShippedCopy();
          if (c.command === 'npm') prepareSourcesBundle();
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
