// `npm start`: the TypeScript sources, started as fast as the build. It bundles src/main.ts with its dependencies
// into one file under dist/sources/, named by a hash of the sources and the lock file, and runs it in this process
// (one process: the PID npm starts is the server's). The bundle is made again only when a source changed (about
// 0.3 s); a fresh clone's first start finds it made by `prepare` (npm ci). Stack traces point into src/ (source maps).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, serverBundleOptions } from './server-bundle-options.mjs';
import { sourcesHash } from './sources-hash.mjs';

const OUT_DIR = join(root, 'dist', 'sources');

/** The bundle of the current sources, made if needed; answers its path, or undefined without esbuild (--omit=dev). */
export async function sourcesBundle(key = sourcesHash()) {
  const name = `server-${key}`;
  const outfile = join(OUT_DIR, `${name}.mjs`);
  if (!existsSync(outfile)) {
    const build = await import('esbuild').then((esbuild) => esbuild.build, () => undefined);
    if (!build) return undefined;
    const { outputFiles } = await build({ ...serverBundleOptions('src/main.ts', outfile, key), write: false });
    mkdirSync(OUT_DIR, { recursive: true });
    for (const old of readdirSync(OUT_DIR)) if (!old.startsWith(name)) rmSync(join(OUT_DIR, old), { force: true });
    // Written aside and renamed, the map first: two starts at once never run a half-written bundle.
    for (const file of [...outputFiles].sort((a, b) => b.path.length - a.path.length)) {
      const aside = `${file.path}.${process.pid}.tmp`;
      writeFileSync(aside, file.contents);
      renameSync(aside, file.path);
    }
  }
  return outfile;
}

const key = sourcesHash();
const outfile = await sourcesBundle(key);
if (process.argv[2] === '--prepare') {
  process.stdout.write(outfile ? `sources bundle: ${relative(root, outfile)}\n` : 'sources bundle: skipped, esbuild is not installed\n');
  // The seeded world beside the bundle, so the first start loads it (a start after an edit seeds instead).
  if (outfile) {
    const { writeSeedSnapshot } = await import('./seed-snapshot.mjs');
    process.stdout.write(`seeded world: ${relative(root, await writeSeedSnapshot(outfile, key))}\n`);
  }
} else if (outfile) {
  process.setSourceMapsEnabled(true);
  // Node 22.1+ keeps the compiled bundle on disk for the next start; older Nodes compile it each time.
  module.enableCompileCache?.();
  await import(pathToFileURL(outfile).href);
} else {
  // Installed without dev dependencies: the sources through tsx (a dependency), slower to start, same process.
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'main.ts')).href);
}
