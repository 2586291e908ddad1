// The build turns the ES modules' imports of Node's own modules into `require` calls (src/build/transpile.mjs,
// builtinsRequired), so a start loads none of the modules Node's ES face of a built-in reads for its lazy exports.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_OPTIONS } from '../../src/build/transpile.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const cache = join(ROOT, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'builtins-required-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An ES module that imports crypto, util and process the way the sandbox's sources do, and says what Node loaded. */
const ENTRY = [
  "import { randomUUID } from 'node:crypto';",
  "import { isDeepStrictEqual } from 'node:util';",
  "import process from 'node:process';",
  'const id = randomUUID();',
  'process.stdout.write(JSON.stringify({ id, equal: isDeepStrictEqual({ a: [1] }, { a: [1] }), loaded: process.moduleLoadList }));',
].join('\n');

describe("Node's own modules in the build", () => {
  it('When a built ES module imports crypto, util and process, then it requires them, works, and loads none of their lazy parts', async () => {
    const outdir = join(dir, 'out');
    await build({ ...BUILD_OPTIONS, absWorkingDir: ROOT, outdir, stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'js', sourcefile: 'entry.js' } });
    const text = readFileSync(join(outdir, 'stdin.js'), 'utf8');
    expect(text).not.toMatch(/from\s*"node:/);
    expect(text).toMatch(/require\("node:crypto"\)/);
    writeFileSync(join(outdir, 'package.json'), '{"type":"module"}');
    const run = spawnSync(process.execPath, [join(outdir, 'stdin.js')], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { id: string; equal: boolean; loaded: string[] };
    expect(out.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.equal).toBe(true);
    // What the ES faces of crypto, process and util read (webcrypto, process.report, util.diff): none of it loaded.
    expect(out.loaded).not.toContain('NativeModule internal/crypto/webcrypto');
    expect(out.loaded).not.toContain('NativeModule internal/process/report');
  });
});
