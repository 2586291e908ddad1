#!/usr/bin/env node
// The one way the sandbox starts: `npx commerce-operations-sandbox`, `npm start` (which bundles src/ into dist/src
// first when the sources changed, src/build/start-checkout.mjs) and the Docker image all run this file, in one process, so the PID that started it is the server's and a
// signal sent to it stops it.
//
// The build bundles express with the sandbox's code; every other dependency stays in node_modules
// (src/build/transpile.mjs, BUNDLED_PACKAGES, says why).
import module from 'node:module';
import { existsSync } from 'node:fs';

// Node's own cache of compiled code (Node >= 22.1; NODE_COMPILE_CACHE picks its folder, NODE_DISABLE_COMPILE_CACHE
// turns it off): a later start skips compiling the server and its dependencies. Older Node compiles every time.
module.enableCompileCache?.();

// `coverage`, `export` and `wait` talk to a running sandbox: their own entry point, which loads none of the server.
const CLIENT_COMMANDS = ['coverage', 'export', 'wait'];
const main = new URL(CLIENT_COMMANDS.includes(process.argv[2]) ? '../dist/src/cli/client-main.js' : '../dist/src/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('commerce-operations-sandbox: no build in this checkout; run `npm start` (it transpiles src/ first) or `npm run build`.\n');
  process.exit(1);
}
await import(main.href);
