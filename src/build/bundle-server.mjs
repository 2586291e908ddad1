// npm run build, second step: bundles the compiled server (dist/src/main.js) and its dependencies into one ESM file,
// dist/server.js, which is what `npm run start:prod`, the Dockerfile, the CLI and the benchmark run.
// Why: Node 20 resolves, reads and compiles each of the ~550 files of the server and its dependencies on every
// start, a large share of start-up; one file skips the resolution and the file system.
// dist/src stays as it is, for `import { startSandbox } from 'commerce-operations-sandbox'`.
import { build } from 'esbuild';
import { serverBundleOptions } from './server-bundle-options.mjs';
import { sourcesHash } from './sources-hash.mjs';

await build(serverBundleOptions('dist/src/main.js', 'dist/server.js', sourcesHash()));
