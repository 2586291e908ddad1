// `npm start`: the TypeScript sources, started as fast as the build. It bundles src/main.ts with its dependencies
// into one file under dist/sources/, named by a hash of the sources and the lock file, and runs it in this process
// (one process: the PID npm starts is the server's). The bundle is made again only when a source changed (about
// 0.3 s); a fresh clone's first start finds it made by `prepare` (npm ci). Stack traces point into src/ (source maps).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, serverBundleOptions } from './server-bundle-options.mjs';

const OUT_DIR = join(root, 'dist', 'sources');

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

/** The bundle of the current sources, made if needed; answers its path, or undefined without esbuild (--omit=dev). */
export async function sourcesBundle() {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(join(root, 'src')), join(root, 'package-lock.json')]) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file));
  }
  const name = `server-${hash.digest('hex').slice(0, 16)}`;
  const outfile = join(OUT_DIR, `${name}.mjs`);
  if (!existsSync(outfile)) {
    const build = await import('esbuild').then((esbuild) => esbuild.build, () => undefined);
    if (!build) return undefined;
    const { outputFiles } = await build({ ...serverBundleOptions('src/main.ts', outfile), write: false });
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

const outfile = await sourcesBundle();
if (process.argv[2] === '--prepare') {
  process.stdout.write(outfile ? `sources bundle: ${relative(root, outfile)}\n` : 'sources bundle: skipped, esbuild is not installed\n');
} else if (outfile) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(outfile).href);
} else {
  // Installed without dev dependencies: the sources through tsx (a dependency), slower to start, same process.
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'main.ts')).href);
}
