// The build bundles its packages' JSON files (Ajv's meta-schemas, mime-db's media types) as JSON.parse of their text
// (src/build/transpile.mjs, BUILD_OPTIONS), which V8 reads faster than the same data compiled as an object literal.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_OPTIONS } from '../../src/build/transpile.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cache = join(ROOT, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'bundled-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("A bundled package's JSON file", () => {
  it('When a bundled package requires a JSON file, then the bundle parses its text with JSON.parse and holds the same data', async () => {
    const { outputFiles } = await build({
      ...BUILD_OPTIONS,
      splitting: false,
      write: false,
      outfile: join(dir, 'out.mjs'),
      absWorkingDir: ROOT,
      // Ajv is among the bundled packages; its meta-schema is one of the JSON files a start requires.
      stdin: { contents: "export { default as metaSchema } from 'ajv/dist/refs/json-schema-draft-07.json';", resolveDir: ROOT, loader: 'js' },
    });
    const text = outputFiles[0]!.text;
    expect(text).toMatch(/"node_modules\/ajv\/dist\/refs\/json-schema-draft-07\.json": \(function\(exports, module\) \{\s+module\.exports = JSON\.parse\(/);
    writeFileSync(join(dir, 'out.mjs'), text);
    const { metaSchema } = (await import(pathToFileURL(join(dir, 'out.mjs')).href)) as { metaSchema: unknown };
    expect(metaSchema).toEqual(JSON.parse(readFileSync(join(ROOT, 'node_modules', 'ajv', 'dist', 'refs', 'json-schema-draft-07.json'), 'utf8')));
  });
});
