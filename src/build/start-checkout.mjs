// `npm start`: the sandbox from this checkout's sources. dist/ is made again (src/build/transpile.mjs, loaded only
// then, with esbuild) only when it was not made from the sources as they are now (src/build/sources-stamp.mjs); then
// the bin runs in this same process, so npm's child is the server and a signal sent to it stops the server
// (package.json's script execs node).
import { builtFromTheseSources } from './sources-stamp.mjs';

if (!builtFromTheseSources()) await (await import('./transpile.mjs')).transpile();
await import('../../bin/commerce-operations-sandbox.js');
