// The package as a stranger gets it: `npm pack` (whose prepack builds dist/) in a copy of this checkout, so no other
// test ever sees a dist/ being rebuilt, then `npm i <tarball>` in an empty folder.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot } from '../../src/paths.js';
import { inject } from 'vitest';
import { eventually, userEnv } from './server-process.js';

const NOT_PACKED = new Set(['node_modules', 'dist', '.git', 'coverage', 'data', 'test', 'bench']);

/** Runs a command to completion as a user's shell would, answering its stdout. */
export const runIn = (cwd: string, command: string, args: string[]) =>
  execFileSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });

/** A packed tarball of this checkout, and a temporary folder `root` for the caller's files (removed by `cleanup`). */
export interface Packed {
  root: string;
  tarball: string;
  cleanup(): void;
}

/**
 * This checkout packed as a stranger gets it, with a folder of the caller's own. The tarball is the run's: the first
 * file that asks packs it into the run's folder (test/helpers/build-entries.ts) while holding a lock folder there, and
 * every other file of the run waits for it and installs the same tarball, so a run builds the package once.
 */
export async function packThisCheckout(prefix = 'sandbox-pack-'): Promise<Packed> {
  const tarball = await runTarball();
  const root = mkdtempSync(join(tmpdir(), prefix));
  return { root, tarball, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The run's tarball: packed here when no other file of the run has started packing it, else awaited. */
async function runTarball(): Promise<string> {
  const run = inject('testRun');
  const packs = join(run, 'packs');
  const failed = join(run, 'pack-failed.txt');
  const tarballIn = (dir: string) => join(dir, readdirSync(dir).find((name) => name.endsWith('.tgz'))!);
  try {
    mkdirSync(join(run, 'pack.lock'));
  } catch {
    // Another file packs: nothing to await across processes but the folder it renames into place when done.
    if (!(await eventually(() => existsSync(packs) || existsSync(failed), 600_000))) throw new Error("the run's tarball was not packed within 10 minutes");
    if (existsSync(failed)) throw new Error(`packing this checkout failed in another file: ${readFileSync(failed, 'utf8')}`);
    return tarballIn(packs);
  }
  try {
    const packing = join(run, 'packing');
    mkdirSync(packing);
    packInto(packing);
    renameSync(packing, packs);
    return tarballIn(packs);
  } catch (error) {
    writeFileSync(failed, String(error instanceof Error ? error.stack : error));
    throw error;
  }
}

/** `npm pack` of a copy of this checkout (built there with this checkout's dev dependencies) into `packs`. */
function packInto(packs: string): void {
  const root = mkdtempSync(join(tmpdir(), 'sandbox-pack-'));
  try {
    const checkout = join(root, 'checkout');
    cpSync(projectRoot, checkout, { recursive: true, filter: (src) => !NOT_PACKED.has(relative(projectRoot, src).split('/')[0]!) });
    // The build needs the dev dependencies (tsc, esbuild, and the packages it bundles, the patched validator among
    // them) in a real node_modules folder of the copy, not a symlinked one: esbuild follows a symlink to the real
    // path, and bundles a package's own requires only from under the checkout's node_modules (src/build/transpile.mjs).
    // The checkout's own install, hard-linked (copied where the temporary folder is on another file system).
    const modules = realpathSync(join(projectRoot, 'node_modules'));
    try {
      execFileSync('cp', ['-al', modules, join(checkout, 'node_modules')], { stdio: 'ignore' });
    } catch {
      rmSync(join(checkout, 'node_modules'), { recursive: true, force: true });
      cpSync(modules, join(checkout, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    }
    runIn(checkout, 'npm', ['pack', '--pack-destination', packs]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** An empty project folder with `manifest` as its package.json, the tarball installed in it (unless `install` is false). */
export function consumerOf(packed: Packed, name: string, manifest: object, install = true): string {
  const dir = join(packed.root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  if (install) runIn(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', packed.tarball]);
  return dir;
}
