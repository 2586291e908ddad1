#!/usr/bin/env node
// The `commerce-operations-sandbox` command (npx commerce-operations-sandbox --help). It runs the built server in
// this process, so the PID that started it is the server's and a signal sent to it stops it. A checkout runs the
// sources with `npm start` instead, or builds first with `npm run build`.
import { existsSync } from 'node:fs';
import module from 'node:module';

const built = new URL('../dist/server.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('commerce-operations-sandbox: no build in this checkout; run `npm run build` first, or `npm start` to run the sources.\n');
  process.exit(1);
}
// Node 22.1+ keeps the compiled bundle on disk for the next start; older Nodes compile it each time.
module.enableCompileCache?.();
await import(built.href);
