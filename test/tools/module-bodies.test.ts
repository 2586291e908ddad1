// The build writes each bundled module's body as a function in parentheses (src/build/transpile.mjs,
// compileModuleBodiesWithTheChunk, run by every build with BUILD_OPTIONS), so V8 compiles it with its chunk and Node's
// compile cache keeps it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_OPTIONS, compileModuleBodiesWithTheChunk } from '../../src/build/transpile.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cache = join(ROOT, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'module-bodies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A chunk as esbuild writes one: a CommonJS module and a lazily initialized ES module. */
const chunk = [
  'var require_a = __commonJS({',
  '  "node_modules/a/index.js"(exports, module) {',
  '    module.exports = function a() {',
  '      return 1;',
  '    };',
  '  }',
  '});',
  'var init_b = __esm({',
  '  "src/b.ts"() {',
  '    b = 2;',
  '  }',
  '});',
].join('\n');

describe("The bundled modules' bodies", () => {
  it('When a chunk holds bundled modules, then each body becomes a function in parentheses and nothing else changes', () => {
    const { code, wrapped } = compileModuleBodiesWithTheChunk(chunk);
    expect(wrapped).toBe(2);
    expect(code).toBe(
      chunk
        .replace('  "node_modules/a/index.js"(exports, module) {', '  "node_modules/a/index.js": (function(exports, module) {')
        .replace('  "src/b.ts"() {', '  "src/b.ts": (function() {')
        .replace('  }\n});\nvar init_b', '  })\n});\nvar init_b')
        .replace(/ {2}\}\n\}\);$/, '  })\n});'),
    );
  });

  it('When a body has no end the build can find, then the build stops instead of writing broken code', () => {
    expect(() => compileModuleBodiesWithTheChunk(chunk.replace(/\n\}\);$/, ''))).toThrow('a bundled module has no end');
  });

  it('When a build with the build options writes nothing, then the output it hands back is rewritten too', async () => {
    const { outputFiles } = await build({
      ...BUILD_OPTIONS,
      splitting: false,
      write: false,
      outfile: join(dir, 'in-memory.mjs'),
      absWorkingDir: ROOT,
      stdin: { contents: "export { default } from 'cors';", resolveDir: ROOT, loader: 'js' },
    });
    expect(outputFiles[0]!.text).toMatch(/"node_modules\/cors\/lib\/index\.js": \(function\(exports, module\) \{/);
  });

  it('When a build with the build options bundles a CommonJS package, then its module is written in parentheses and the bundle still runs', async () => {
    const outdir = join(dir, 'out');
    await build({
      ...BUILD_OPTIONS,
      absWorkingDir: ROOT,
      outdir,
      // cors is among the bundled packages, and CommonJS.
      stdin: { contents: "import cors from 'cors'; export const middleware = cors();", resolveDir: ROOT, loader: 'js', sourcefile: 'entry.js' },
    });
    const text = readFileSync(join(outdir, 'stdin.js'), 'utf8');
    expect(text).toMatch(/"node_modules\/cors\/lib\/index\.js": \(function\(exports, module\) \{/);
    expect(text).not.toMatch(/"node_modules\/[^"]+"\(exports, module\) \{/);
    writeFileSync(join(outdir, 'package.json'), '{"type":"module"}');
    const { middleware } = (await import(pathToFileURL(join(outdir, 'stdin.js')).href)) as { middleware: unknown };
    expect(typeof middleware).toBe('function');
  });
});
