// The entry of dist/server.js (bundled by src/build/bundle-server.mjs): runs dist/server.cjs beside it with its
// code cache (src/build/run-bundle.mjs). The URL is resolved where the output lives, dist/, not here.
import { fileURLToPath } from 'node:url';
import { runBundle } from './run-bundle.mjs';

runBundle(fileURLToPath(new URL('./server.cjs', import.meta.url)));
