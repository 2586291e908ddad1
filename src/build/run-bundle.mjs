// Runs a CommonJS server bundle (src/build/server-bundle-options.mjs) in this process, compiled with a V8 code cache
// kept beside it: compiling the 3 MB bundle, and then each function as it is first called, is the largest share
// of a start that V8 can skip when handed the code it compiled the last time. dist/server.js (the built server,
// the bin, the Docker image) and npm start (src/build/start-sources.mjs) start through here.
//
// The cache is `<bundle>.node-<version>-<arch>.code-cache`: the bundle's SHA-1, then V8's data. It is used only
// when both the SHA-1 and V8's own checks (its version, flags and the source's length) match; otherwise the bundle
// compiles as it would without one, and the cache is written at exit (the warm-up of `npm run build` and `prepare`,
// src/build/warm-code-cache.mjs, does that on purpose; any other server that ran long enough to be warm does too).
// A cache that cannot be written (a read-only install) is skipped without a word.
//
// V8 checks a cache against its flags, and short GC pauses (src/build/gc-pauses.mjs, on in hosted mode) are V8
// flags: set first, they made every hosted start reject the cache the build made, compile the whole bundle, and
// then overwrite the cache with one that every plain start rejected in turn. So they are set once V8 has checked
// the cache and before the bundle runs (the heap has not grown yet), and a process that set them writes no cache.
import { createHash } from 'node:crypto';
import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import vm from 'node:vm';
import { keepGcPausesShort } from './gc-pauses.mjs';

/** A server stopped sooner than this after it started (--help, a bad option) compiled too little to be worth keeping. */
const WARM_AFTER_MS = 3000;
/** Set by the warm-up: write the cache at exit however short the run. */
export const WRITE_CODE_CACHE_ENV = 'SANDBOX_WRITE_CODE_CACHE';

/** Where the code cache of `bundle` is kept for this Node binary. */
export const codeCachePath = (bundle) => `${bundle}.node-${process.version}-${process.arch}.code-cache`;

/** The cache's data when it was made from these bytes of the bundle; undefined otherwise. */
function readCodeCache(file, header) {
  try {
    const bytes = readFileSync(file);
    return bytes.subarray(0, header.length).equals(header) ? bytes.subarray(header.length) : undefined;
  } catch {
    return undefined;
  }
}

function writeCodeCache(file, header, script) {
  // Written aside and renamed: a start that reads it at the same moment sees the whole file or none.
  const aside = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(aside, Buffer.concat([header, script.createCachedData()]));
    renameSync(aside, file);
  } catch {
    rmSync(aside, { force: true });
  }
}

/**
 * Stack frames in a file Node's own loaders did not compile are not mapped, even with source maps enabled: a stub
 * module of the same file name whose only line names the map registers it, and the frames of the bundle map to src/.
 */
function registerSourceMap(bundle) {
  const stub = new Module(bundle);
  stub.filename = bundle;
  stub._compile(`//# sourceMappingURL=${basename(bundle)}.map\n`, bundle);
  // Node keeps the map for as long as the module object lives.
  sourceMapStubs.push(stub);
}
const sourceMapStubs = [];

/**
 * Compiles and runs `bundle` as Node runs a CommonJS main module, with its code cache when it has a valid one.
 * Answers how the cache went: 'used', 'none' (missing, or made from other bytes) or 'rejected' (by V8).
 */
export function runBundle(bundle, { sourceMaps = false } = {}) {
  const bytes = readFileSync(bundle);
  // The bundles are ASCII (asciiOnly in server-bundle-options.mjs): a one-byte string, the cheapest to make and compile.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const header = Buffer.from(`${createHash('sha1').update(bytes).digest('hex')}\n`);
  const cacheFile = codeCachePath(bundle);
  const cachedData = readCodeCache(cacheFile, header);
  // The wrapper on the bundle's first line, as Node's loader does, so line numbers are the file's.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new vm.Script(wrapped, { filename: bundle, cachedData });
  // After the cache check, before the bundle grows the heap (src/build/gc-pauses.mjs says why it must be before).
  const shortGcPauses = keepGcPausesShort();
  if (!shortGcPauses && (cachedData === undefined || script.cachedDataRejected)) {
    const started = performance.now();
    process.once('exit', () => {
      if (process.env[WRITE_CODE_CACHE_ENV] === '1' || performance.now() - started >= WARM_AFTER_MS) writeCodeCache(cacheFile, header, script);
    });
  }
  if (sourceMaps) registerSourceMap(bundle);
  const module = new Module(bundle);
  module.filename = bundle;
  module.paths = Module._nodeModulePaths(dirname(bundle));
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  module.loaded = true;
  return cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
}
