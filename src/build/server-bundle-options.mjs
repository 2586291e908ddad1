// The esbuild options of the one-file server, shared by `npm run build` (dist/server.cjs) and `npm start`
// (src/build/start-sources.mjs): both start the same way, one file instead of ~550 modules, run by
// src/build/run-bundle.mjs with a V8 code cache.
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The bundle's text with every character outside ASCII replaced by as many `?` as it has UTF-16 units, so a
 * source map's columns still hold. esbuild escapes them in code (its default charset), so the only ones left are in
 * the dependencies' comments; an ASCII file is a one-byte string to V8, half the memory and quicker to compile.
 */
export const asciiOnly = (text) => text.replace(/[^\x00-\x7f]/gu, (char) => '?'.repeat(char.length));

/**
 * Bundles `entry` (the server's main module, compiled or TypeScript) and its dependencies into `outfile`, which
 * carries `key` (src/build/sources-hash.mjs): the seeded world beside it is loaded only if it carries the same.
 * CommonJS, because only a script (not an ES module) can be compiled with a code cache on Node 20 (vm.Script).
 */
export function serverBundleOptions(entry, outfile, key) {
  return {
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    // The map points at the files (src/, node_modules/) without a copy of them: npm start reads the map on every
    // start to point stack traces into src/, and the copies made it several times larger.
    sourcesContent: false,
    // swagger-ui-dist serves its asset files from its own directory (__dirname), which only exists unbundled.
    external: ['swagger-ui-dist'],
    // The validator's deep copies of the contract, by structuredClone (clone-document.cjs says why that is safe).
    alias: { 'lodash.clonedeep': './src/build/clone-document.cjs' },
    // The sources find the package root and the files beside the bundle from import.meta.url, which a CommonJS
    // file does not have: it is the bundle's own URL.
    define: { SANDBOX_SOURCES_KEY: JSON.stringify(key), 'import.meta.url': '__sandboxBundleUrl' },
    banner: { js: "const __sandboxBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
    // The caller writes the files, the bundle through asciiOnly.
    write: false,
  };
}
