// `npm start`'s question before every start (src/build/sources-stamp.mjs): was dist/ made from the sources as they
// are now? Asked of a checkout made of real files in a temporary folder, stamped as the build stamps it.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtFromTheseSources, ENTRIES, sourcesListing, stampOf } from '../../src/build/sources-stamp.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A checkout with a few sources and every output, built (stamped) from them. */
function builtCheckout(): string {
  const root = mkdtempSync(join(tmpdir(), 'sources-stamp-'));
  roots.push(root);
  write(root, 'src/main.ts', 'export {};\n');
  write(root, 'src/areas/products/handlers.ts', 'export const a = 1;\n');
  write(root, 'tsconfig.json', '{}\n');
  write(root, 'openapi.yaml', 'openapi: 3.0.3\n');
  write(root, 'package-lock.json', '{}\n');
  write(root, 'patches/express-openapi-validator+5.6.2.patch', 'diff\n');
  for (const entry of ENTRIES) write(root, entry.replace(/^src\//, 'dist/src/').replace(/\.ts$/, '.js'), '');
  for (const output of ['dist/openapi.json', 'dist/validator-spec.json', 'dist/seeded-world.json']) write(root, output, '{}');
  writeFileSync(stampOf(root), sourcesListing(root));
  return root;
}

describe('npm start builds again only when dist/ was not made from the sources as they are now', () => {
  it('When nothing changed since the build, then dist/ is current', () => {
    expect(builtFromTheseSources(builtCheckout())).toBe(true);
  });

  it('When a source is saved again with the same size, then dist/ is not current', () => {
    const root = builtCheckout();
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'src/areas/products/handlers.ts'), later, later);
    expect(builtFromTheseSources(root)).toBe(false);
  });

  it('When a source changes size, then dist/ is not current', () => {
    const root = builtCheckout();
    write(root, 'openapi.yaml', 'openapi: 3.0.3\ninfo: {}\n');
    expect(builtFromTheseSources(root)).toBe(false);
  });

  it('When a file is added in a folder of src/ or the validator patch is removed, then dist/ is not current', () => {
    const added = builtCheckout();
    write(added, 'src/areas/products/new-step.ts', '');
    expect(builtFromTheseSources(added)).toBe(false);

    const removed = builtCheckout();
    rmSync(join(removed, 'patches'), { recursive: true });
    expect(builtFromTheseSources(removed)).toBe(false);
  });

  it('When an output is missing or there is no stamp, then dist/ is not current', () => {
    const missing = builtCheckout();
    rmSync(join(missing, 'dist/validator-spec.json'));
    expect(builtFromTheseSources(missing)).toBe(false);

    const unstamped = builtCheckout();
    rmSync(stampOf(unstamped));
    expect(builtFromTheseSources(unstamped)).toBe(false);
  });

  it('When the stamp was written by a build in another form (a digest), then dist/ is not current', () => {
    const root = builtCheckout();
    writeFileSync(stampOf(root), 'f'.repeat(64));
    expect(builtFromTheseSources(root)).toBe(false);
  });
});
