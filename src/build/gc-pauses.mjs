// Short garbage-collection pauses for a shared sandbox, chosen before the server's code runs.
//
// V8 grows its young generation (the semi-spaces new objects are born in) up to 16 MiB while much of what is
// allocated survives, and each young-generation collection stops everything for as long as copying the survivors
// takes. A flood of workspace creations is that case: every creation keeps its workspace and journal entry. With the
// young generation grown, the sandbox stalled 10 to 16 ms behind 4 clients' creations (`npm run bench`), where a
// bare node:http server stalls 3 to 5 ms. Kept at its smallest, collections come more often and each copies less:
// the longest took 2 to 3 ms.
// The price is throughput: a replayed read costs about a fifth more CPU, which a laptop or a CI job notices and a
// hosted sandbox, shared by many people at once, does not. So it is on in hosted mode, and SHORT_GC_PAUSES says
// otherwise either way.
import { setFlagsFromString } from 'node:v8';

/** The V8 flags that keep the young generation at its initial size (1 MiB per semi-space on 64-bit). */
export const SHORT_GC_PAUSE_FLAGS = ['--max-semi-space-size=2', '--semi-space-growth-factor=1'];

// The words boolEnv (src/cli/parse-args.ts) takes; this file runs before any TypeScript is loaded.
const TRUE = ['1', 'true', 'yes'];
const FALSE = ['', '0', 'false', 'no'];

/** SHORT_GC_PAUSES=1|0 if set to either, else hosted mode (HOSTED=1). src/config.ts reports a value that is neither. */
export function wantsShortGcPauses(env = process.env) {
  const asked = env.SHORT_GC_PAUSES?.trim().toLowerCase();
  if (asked !== undefined && TRUE.includes(asked)) return true;
  if (asked !== undefined && FALSE.includes(asked)) return false;
  return TRUE.includes(env.HOSTED?.trim().toLowerCase() ?? '');
}

/**
 * Applies the flags when `env` asks for short pauses, unless node's own command line or NODE_OPTIONS sizes the young
 * generation (that wins). It must run before the heap grows: V8 reads them when it next resizes the young
 * generation, and never shrinks one it has grown. Answers whether it applied them.
 */
export function keepGcPausesShort(env = process.env, nodeFlags = [...process.execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)], setFlags = setFlagsFromString) {
  if (!wantsShortGcPauses(env)) return false;
  if (nodeFlags.some((flag) => /^--(max|min)[-_]semi[-_]space[-_]size\b/.test(flag))) return false;
  for (const flag of SHORT_GC_PAUSE_FLAGS) setFlags(flag);
  return true;
}
