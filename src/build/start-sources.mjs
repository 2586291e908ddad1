// `npm start`: the TypeScript sources, started as fast as the build. It bundles src/main.ts with its dependencies
// into one file under dist/sources/, named by a hash of the sources and the lock file, and runs it in this process
// with its code cache (src/build/run-bundle.mjs; one process: the PID npm starts is the server's). The bundle is
// made again only when a source changed (about 0.3 s); a fresh clone's first start finds it, its seeded world and
// its code cache made by `prepare` (npm ci). Stack traces point into src/ (source maps).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { keepGcPausesShort } from './gc-pauses.mjs';
import { runBundle } from './run-bundle.mjs';
import { asciiOnly, root, serverBundleOptions } from './server-bundle-options.mjs';
import { rememberedSourcesHash } from './sources-hash.mjs';

const OUT_DIR = join(root, 'dist', 'sources');
const STAMP = 'sources-stamp.json';

/** The bundle of the current sources, made if needed; answers its path, or undefined without esbuild (--omit=dev). */
export async function sourcesBundle(key = rememberedSourcesHash(join(OUT_DIR, STAMP))) {
  const name = `server-${key}`;
  const outfile = join(OUT_DIR, `${name}.cjs`);
  if (!existsSync(outfile)) {
    const build = await import('esbuild').then((esbuild) => esbuild.build, () => undefined);
    if (!build) return undefined;
    const { outputFiles } = await build(serverBundleOptions('src/main.ts', outfile, key));
    mkdirSync(OUT_DIR, { recursive: true });
    for (const old of readdirSync(OUT_DIR)) if (!old.startsWith(name) && old !== STAMP) rmSync(join(OUT_DIR, old), { force: true });
    // Written aside and renamed, the map first: two starts at once never run a half-written bundle.
    for (const file of [...outputFiles].sort((a, b) => b.path.length - a.path.length)) {
      const aside = `${file.path}.${process.pid}.tmp`;
      writeFileSync(aside, file.path === outfile ? asciiOnly(file.text) : file.contents);
      renameSync(aside, file.path);
    }
  }
  return outfile;
}

const key = rememberedSourcesHash(join(OUT_DIR, STAMP));
const outfile = await sourcesBundle(key);
if (process.argv[2] === '--prepare') {
  process.stdout.write(outfile ? `sources bundle: ${relative(root, outfile)}\n` : 'sources bundle: skipped, esbuild is not installed\n');
  // The seeded world beside the bundle, so the first start loads it (a start after an edit seeds instead).
  if (outfile) {
    const { writeSeedSnapshot } = await import('./seed-snapshot.mjs');
    process.stdout.write(`seeded world: ${relative(root, await writeSeedSnapshot(outfile, key))}\n`);
    // Then its code cache, made by starting it as npm start does (this file, without --prepare).
    const { warmCodeCache } = await import('./warm-code-cache.mjs');
    process.stdout.write(`code cache: ${relative(root, await warmCodeCache(fileURLToPath(import.meta.url), outfile))}\n`);
  }
} else if (outfile) {
  process.setSourceMapsEnabled(true);
  runBundle(outfile, { sourceMaps: true });
} else {
  // Installed without dev dependencies: the sources through tsx (a dependency), slower to start, same process.
  keepGcPausesShort();
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'main.ts')).href);
}
