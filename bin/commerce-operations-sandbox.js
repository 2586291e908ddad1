#!/usr/bin/env node
// The `commerce-operations-sandbox` command (npx commerce-operations-sandbox --help). It runs the built server in
// this process, so the PID that started it is the server's and a signal sent to it stops it. A checkout runs the
// sources with `npm start` instead, or builds first with `npm run build`.
import { existsSync } from 'node:fs';

const built = new URL('../dist/server.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('commerce-operations-sandbox: no build in this checkout; run `npm run build` first, or `npm start` to run the sources.\n');
  process.exit(1);
}
await import(built.href);
