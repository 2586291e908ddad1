// npm run build, second step: bundles the compiled server (dist/src/main.js) and its dependencies into one ESM file,
// dist/server.js, which is what `npm run start:prod`, the Dockerfile, the CLI and the benchmark run.
// Why: Node 20 resolves, reads and compiles each of the ~550 files of the server and its dependencies on every
// start (about 0.25 s of start-up); one file skips the resolution and the file system.
// dist/src stays as it is, for `import { startSandbox } from 'commerce-operations-sandbox'`.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/main.js'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // swagger-ui-dist serves its asset files from its own directory (__dirname), which only exists unbundled.
  external: ['swagger-ui-dist'],
  // The CommonJS dependencies call require() for Node's built-ins (and swagger-ui-dist); an ES module has none.
  banner: { js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);" },
  logLevel: 'warning',
});
