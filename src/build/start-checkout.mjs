// `npm start`: the sandbox from this checkout's sources. dist/ is made again (src/build/transpile.mjs) only when it
// was not made from the sources as they are now; then the bin runs in this same process, so npm's child is the
// server and a signal sent to it stops the server (package.json's script execs node).
import { builtFromTheseSources, transpile } from './transpile.mjs';

if (!builtFromTheseSources()) await transpile();
await import('../../bin/commerce-operations-sandbox.js');
