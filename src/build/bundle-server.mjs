// npm run build, second step: bundles the compiled server (dist/src/main.js) and its dependencies into one CommonJS
// file, dist/server.cjs, and writes dist/server.js, which runs it with its code cache (src/build/run-bundle.mjs):
// dist/server.js is what `npm run start:prod`, the Dockerfile, the bin and the benchmark run.
// Why: Node 20 resolves, reads and compiles each of the ~550 files of the server and its dependencies on every
// start, a large share of start-up; one file skips the resolution and the file system.
// dist/src stays as it is, for `import { startSandbox } from 'commerce-operations-sandbox'`.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { asciiOnly, root, serverBundleOptions } from './server-bundle-options.mjs';
import { sourcesHash } from './sources-hash.mjs';

const { outputFiles } = await build(serverBundleOptions('dist/src/main.js', 'dist/server.cjs', sourcesHash()));
for (const file of outputFiles) writeFileSync(file.path, file.path.endsWith('.cjs') ? asciiOnly(file.text) : file.contents);
await build({ absWorkingDir: root, entryPoints: ['src/build/built-server.mjs'], outfile: 'dist/server.js', bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
