// The build's entries, and whether dist/ was made from the sources as they are now: `npm start` asks before every start, so this module loads
// nothing but node:fs and node:path, and the answer is one walk of the inputs' names, sizes and modification times.
// dist/.sources holds that listing as the build saw it (transpile.mjs writes it); a start compares it, as text.
// Plain JavaScript: npm start runs it before anything is built.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));
// What the build reads: src/, tsconfig.json (how esbuild compiles classes and imports), openapi.yaml (the
// contract's JSON copy is made from it), and what decides the bundled packages' files: the lockfile's versions and
// the patches applied to them.
const INPUTS = ['src', 'tsconfig.json', 'openapi.yaml', 'package-lock.json', 'patches'];
/** The entries under src/: the CLI, the seeding thread's worker, the client CLI, the library, the build's two writers. */
export const ENTRIES = [
  'src/main.ts',
  'src/seed-worker.ts',
  'src/cli/client-main.ts',
  'src/index.ts',
  'src/build/write-contract-json.ts',
  'src/build/write-seeded-world.ts',
];
/** What the build writes: each entry's module and its writers' files. */
const OUTPUTS = [
  ...ENTRIES.map((entry) => entry.replace(/^src\//, 'dist/src/').replace(/\.ts$/, '.js')),
  'dist/openapi.json',
  'dist/validator-spec.json',
  'dist/seeded-world.json',
];

/** Where the listing of the sources dist/ was made from is kept. */
export const stampOf = (root = CHECKOUT) => join(root, 'dist', '.sources');

/**
 * One line per file the build reads (path, size, modification time) and per folder (its path): an edit, a new
 * file, a removed one or a checkout of other sources changes it. A missing input is a line of its own.
 */
export function sourcesListing(root = CHECKOUT) {
  const lines = [];
  const visit = (path) => {
    const entries = readdirSync(join(root, path), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    lines.push(`${path}/`);
    for (const entry of entries) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory()) visit(child);
      else file(child);
    }
  };
  const file = (path) => {
    const stat = statSync(join(root, path), { throwIfNoEntry: false });
    if (stat?.isDirectory()) visit(path);
    else lines.push(stat ? `${path}\0${stat.size}\0${stat.mtimeMs}` : `${path}\0missing`);
  };
  for (const input of INPUTS) file(input);
  return lines.join('\n');
}

/** Whether dist/ holds every entry and its writers' files, made from the sources as they are now. */
export function builtFromTheseSources(root = CHECKOUT) {
  const stamp = stampOf(root);
  return existsSync(stamp) && OUTPUTS.every((output) => existsSync(join(root, output))) && readFileSync(stamp, 'utf8') === sourcesListing(root);
}
