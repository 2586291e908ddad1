// The esbuild options of the one-file server, shared by `npm run build` (dist/server.js) and `npm start`
// (src/build/start-sources.mjs): both start the same way, one file instead of ~550 modules.
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Bundles `entry` (the server's main module, compiled or TypeScript) and its dependencies into `outfile`, which
 * carries `key` (src/build/sources-hash.mjs): the seeded world beside it is loaded only if it carries the same.
 */
export function serverBundleOptions(entry, outfile, key) {
  return {
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // The map points at the files (src/, node_modules/) without a copy of them: npm start reads the map on every
    // start to point stack traces into src/, and the copies made it several times larger.
    sourcesContent: false,
    // swagger-ui-dist serves its asset files from its own directory (__dirname), which only exists unbundled.
    external: ['swagger-ui-dist'],
    define: { SANDBOX_SOURCES_KEY: JSON.stringify(key) },
    // The CommonJS dependencies call require() for Node's built-ins (and swagger-ui-dist); an ES module has none.
    banner: { js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}
