// The identity of the sources a bundle is made from: every file under src/ and the lock file (the dependencies'
// versions). It names npm start's bundle, and it is the key a seeded world shipped beside a bundle must carry to
// be loaded instead of seeding (src/seed-snapshot.ts).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './server-bundle-options.mjs';

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

/** A short hex hash of the sources and the lock file. */
export function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(join(root, 'src')), join(root, 'package-lock.json')]) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}
