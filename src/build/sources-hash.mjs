// The identity of the sources a bundle is made from: every file under src/ and the lock file (the dependencies'
// versions). It names npm start's bundle, and it is the key a seeded world shipped beside a bundle must carry to
// be loaded instead of seeding (src/seed-snapshot.ts).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './server-bundle-options.mjs';

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

const hashedFiles = () => [...sourceFiles(join(root, 'src')), join(root, 'package-lock.json')];

/** A short hex hash of the sources and the lock file. */
export function sourcesHash(files = hashedFiles()) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(root, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * sourcesHash, remembered in `stampFile` with each file's size and modification time: while none of those
 * changed, the files are not read again (npm start asks on every start, and reading them all is a visible share
 * of it). Any edit, checkout or new file changes the listing, and the hash is computed anew.
 */
export function rememberedSourcesHash(stampFile) {
  const files = hashedFiles();
  const listing = files.map((file) => {
    const { size, mtimeMs } = statSync(file);
    return `${relative(root, file)}\0${size}\0${mtimeMs}`;
  }).join('\n');
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    if (stamp.listing === listing && typeof stamp.key === 'string') return stamp.key;
  } catch {
    // No stamp yet (or a half-written one): hash.
  }
  const key = sourcesHash(files);
  try {
    mkdirSync(join(stampFile, '..'), { recursive: true });
    const aside = `${stampFile}.${process.pid}.tmp`;
    writeFileSync(aside, JSON.stringify({ key, listing }));
    renameSync(aside, stampFile);
  } catch {
    // A read-only checkout hashes on every start.
  }
  return key;
}
