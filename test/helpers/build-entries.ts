// Vitest's globalSetup: a folder for this run (under node_modules/.cache, so package.json and node_modules are this
// checkout's when a built file looks for them; never dist/, which the package tests build on their own), removed
// when the run ends. It holds the entries a test starts as its own process (the CLI, the seeding thread's worker,
// the client CLI, and test/store's child scripts), built once per run the way `npm run build` transpiles them into
// dist/src, so those tests spawn `node` on JavaScript instead of compiling TypeScript under tsx in every child; and
// the run's packed tarball (test/helpers/packed-package.ts), packed by the first file that needs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { BUILD_OPTIONS } from '../../src/build/transpile.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The entries under src/ a test may start (src/build/transpile.mjs builds them into dist/src). */
const ENTRIES = ['src/main.ts', 'src/seed-worker.ts', 'src/cli/client-main.ts'];
/** The scripts test/store's tests start as processes (test/store/helpers.ts spawnChild), built into store-children/. */
const STORE_CHILDREN = ['crash-writer', 'hold-lock', 'try-open'].map((name) => `test/store/children/${name}.ts`);

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's folder. */
    testRun: string;
    /** The folder that holds the built entries as dist/src holds them (main.js, seed-worker.js, cli/client-main.js). */
    builtSrc: string;
  }
}

async function prepare(): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'sandbox-test-run-'));
  await Promise.all([
    build({ ...BUILD_OPTIONS, absWorkingDir: ROOT, entryPoints: ENTRIES, outdir: join(dir, 'src'), outbase: 'src' }),
    build({ ...BUILD_OPTIONS, absWorkingDir: ROOT, entryPoints: STORE_CHILDREN, outdir: join(dir, 'store-children') }),
  ]);
  return dir;
}

// Vitest calls this once for each project and once for the root, all in its one main process, each through its
// own copy of this module: the process holds the one run folder they share, so a run builds and packs once.
const SHARED = Symbol.for('commerce-operations-sandbox.test-run');
const shared = globalThis as { [SHARED]?: Promise<string> };

export default async function setup(project: TestProject): Promise<() => void> {
  shared[SHARED] ??= prepare();
  const dir = await shared[SHARED];
  project.provide('testRun', dir);
  project.provide('builtSrc', join(dir, 'src'));
  return () => rmSync(dir, { recursive: true, force: true });
}
