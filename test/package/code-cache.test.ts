import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';

// src/build/run-bundle.mjs, which starts dist/server.js and npm start's bundle: a code cache is used only when it
// was made from the same bytes for the same Node, and the bundle runs the same with or without it.
const runBundleUrl = pathToFileURL(join(projectRoot, 'src', 'build', 'run-bundle.mjs')).href;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function aBundle(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-code-cache-'));
  dirs.push(dir);
  const file = join(dir, 'server.cjs');
  writeFileSync(file, body);
  return file;
}

/** Runs the bundle in a new process, as dist/server.js does; answers what it printed and how the cache went. */
function run(bundle: string, env: Record<string, string> = {}): { printed: string; cache: string } {
  const script = `import { runBundle } from ${JSON.stringify(runBundleUrl)}; const cache = runBundle(${JSON.stringify(bundle)}); console.log('cache:' + cache);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, HOSTED: '', SHORT_GC_PAUSES: '', ...env }, encoding: 'utf8' });
  const [printed, cache] = out.trimEnd().split('cache:');
  return { printed: printed!, cache: cache! };
}

const WRITE = { SANDBOX_WRITE_CODE_CACHE: '1' };
const cacheOf = (bundle: string) => `${bundle}.node-${process.version}-${process.arch}.code-cache`;
const BODY = "const { basename } = require('node:path'); console.log(basename(__filename), typeof module.exports, [1, 2, 3].map((n) => n * 2).join());\n";

describe('the code cache of a server bundle', () => {
  it('When a bundle has no cache, then it runs as CommonJS and a warm-up run leaves one that the next start uses', () => {
    const bundle = aBundle(BODY);
    expect(run(bundle)).toEqual({ printed: 'server.cjs object 2,4,6\n', cache: 'none' });
    // A run that is neither the warm-up nor long enough to be warm writes nothing.
    expect(run(bundle).cache).toBe('none');
    expect(run(bundle, WRITE).cache).toBe('none');
    expect(run(bundle)).toEqual({ printed: 'server.cjs object 2,4,6\n', cache: 'used' });
  });

  it('When the bundle changes, even to bytes of the same length, then its old cache is not used and the bundle runs as it is now', () => {
    const bundle = aBundle(BODY);
    run(bundle, WRITE);
    writeFileSync(bundle, BODY.replace('n * 2', 'n * 3'));
    expect(run(bundle)).toEqual({ printed: 'server.cjs object 3,6,9\n', cache: 'none' });
  });

  it('When V8 rejects the cache (another Node, other flags, damaged), then the bundle compiles as usual and a warm-up writes a good one', () => {
    const bundle = aBundle(BODY);
    run(bundle, WRITE);
    const cache = readFileSync(cacheOf(bundle));
    const header = cache.indexOf('\n') + 1;
    writeFileSync(cacheOf(bundle), Buffer.concat([cache.subarray(0, header), Buffer.alloc(cache.length - header, 7)]));
    expect(run(bundle, WRITE)).toEqual({ printed: 'server.cjs object 2,4,6\n', cache: 'rejected' });
    expect(run(bundle).cache).toBe('used');
  });

  it('When short GC pauses are on (hosted mode), then the cache made without them is used, and the process writes none of its own', () => {
    const bundle = aBundle(BODY);
    run(bundle, WRITE);
    const made = readFileSync(cacheOf(bundle));
    // Their V8 flags are set after V8 has checked the cache: set before, V8 rejected it (flags enter its check).
    expect(run(bundle, { SHORT_GC_PAUSES: '1' })).toEqual({ printed: 'server.cjs object 2,4,6\n', cache: 'used' });
    expect(run(bundle, { HOSTED: '1', ...WRITE }).cache).toBe('used');
    expect(readFileSync(cacheOf(bundle)).equals(made)).toBe(true);
    // Without a cache, such a process writes none: it would carry their flags and every plain start would reject it.
    rmSync(cacheOf(bundle));
    expect(run(bundle, { SHORT_GC_PAUSES: '1', ...WRITE }).cache).toBe('none');
    expect(existsSync(cacheOf(bundle))).toBe(false);
    expect(run(bundle, WRITE).cache).toBe('none');
    expect(run(bundle, { SHORT_GC_PAUSES: '1' }).cache).toBe('used');
  });
});
