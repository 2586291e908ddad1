// The package as a stranger gets it: `npm pack` (whose prepack builds dist/) in a copy of this checkout, so no other
// test ever sees a dist/ being rebuilt, then `npm i <tarball>` in an empty folder.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot } from '../../src/paths.js';
import { userEnv } from './server-process.js';

const NOT_PACKED = new Set(['node_modules', 'dist', '.git', 'coverage', 'data', 'test', 'bench']);

/** Runs a command to completion as a user's shell would, answering its stdout. */
export const runIn = (cwd: string, command: string, args: string[]) =>
  execFileSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });

/** A packed tarball of this checkout, in a temporary folder `root` (removed by `cleanup`). */
export interface Packed {
  root: string;
  tarball: string;
  cleanup(): void;
}

/** Packs this checkout (a copy of it, built there with this checkout's dev dependencies). */
export function packThisCheckout(prefix = 'sandbox-pack-'): Packed {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const checkout = join(root, 'checkout');
  cpSync(projectRoot, checkout, { recursive: true, filter: (src) => !NOT_PACKED.has(relative(projectRoot, src).split('/')[0]!) });
  // The build needs the dev dependencies (tsc, esbuild), and the tarball bundles the patched validator with its
  // dependencies (bundleDependencies), which npm collects only from a real node_modules folder, not a symlinked one:
  // the checkout's own install, hard-linked (copied where the temporary folder is on another file system).
  const modules = realpathSync(join(projectRoot, 'node_modules'));
  try {
    execFileSync('cp', ['-al', modules, join(checkout, 'node_modules')], { stdio: 'ignore' });
  } catch {
    rmSync(join(checkout, 'node_modules'), { recursive: true, force: true });
    cpSync(modules, join(checkout, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
  const packs = join(root, 'packs');
  mkdirSync(packs);
  runIn(checkout, 'npm', ['pack', '--pack-destination', packs]);
  const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
  return { root, tarball, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** An empty project folder with `manifest` as its package.json, the tarball installed in it (unless `install` is false). */
export function consumerOf(packed: Packed, name: string, manifest: object, install = true): string {
  const dir = join(packed.root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  if (install) runIn(dir, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', packed.tarball]);
  return dir;
}
