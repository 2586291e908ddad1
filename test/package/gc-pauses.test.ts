import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromOptions } from '../../src/config.js';
import { parseArgs } from '../../src/cli/parse-args.js';
import { projectRoot } from '../../src/paths.js';

// src/build/gc-pauses.mjs: a process started as the sandbox (every launcher goes through src/build/run-bundle.mjs)
// keeps V8's young generation small when hosted mode or SHORT_GC_PAUSES asks, before the server's code runs.
const buildDir = pathToFileURL(join(projectRoot, 'src', 'build')).href;
type GcPauses = {
  SHORT_GC_PAUSE_FLAGS: string[];
  wantsShortGcPauses(env: Record<string, string | undefined>): boolean;
  keepGcPausesShort(env: Record<string, string | undefined>, nodeFlags: string[], setFlags: (flag: string) => void): boolean;
};
const gcPauses = (): Promise<GcPauses> => import(`${buildDir}/gc-pauses.mjs`) as Promise<GcPauses>;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The size of the young generation (V8's new space) after a bundle kept 300,000 small objects alive, started through
 * run-bundle.mjs in a new process with `env`, as dist/server.js and npm start run the server.
 */
function youngGenerationAfterSurvivors(env: Record<string, string>): number {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-gc-pauses-'));
  dirs.push(dir);
  const bundle = join(dir, 'server.cjs');
  writeFileSync(
    bundle,
    "const keep = []; for (let i = 0; i < 300000; i++) keep.push({ i, s: 'x' + i });\n" +
      "console.log(require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size, keep.length);\n",
  );
  const script = `import { runBundle } from '${buildDir}/run-bundle.mjs'; runBundle(${JSON.stringify(bundle)});`;
  const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...inherited, HOSTED: '', SHORT_GC_PAUSES: '', ...env }, encoding: 'utf8' });
  const [size, kept] = out.trim().split(' ').map(Number);
  expect(kept).toBe(300_000);
  return size!;
}

const MIB = 1024 * 1024;

describe('short GC pauses (SHORT_GC_PAUSES, on in hosted mode)', () => {
  it('When a server process starts with SHORT_GC_PAUSES=1, then its young generation stays at 2 MiB while much survives; without it, V8 grows it', () => {
    expect(youngGenerationAfterSurvivors({ SHORT_GC_PAUSES: '1' })).toBeLessThanOrEqual(2 * MIB);
    expect(youngGenerationAfterSurvivors({})).toBeGreaterThan(4 * MIB);
  });

  it('When HOSTED=1 is set, then short pauses are on unless SHORT_GC_PAUSES=0 says otherwise', async () => {
    const { wantsShortGcPauses } = await gcPauses();
    expect(wantsShortGcPauses({})).toBe(false);
    expect(wantsShortGcPauses({ HOSTED: '1' })).toBe(true);
    expect(wantsShortGcPauses({ HOSTED: 'true', SHORT_GC_PAUSES: '0' })).toBe(false);
    expect(wantsShortGcPauses({ SHORT_GC_PAUSES: 'yes' })).toBe(true);
    expect(wantsShortGcPauses({ HOSTED: '0', SHORT_GC_PAUSES: '' })).toBe(false);
    expect(youngGenerationAfterSurvivors({ HOSTED: '1', SHORT_GC_PAUSES: '0' })).toBeGreaterThan(4 * MIB);
  });

  it("When node's command line or NODE_OPTIONS already sizes the young generation, then that wins and no flag is set", async () => {
    const { keepGcPausesShort, SHORT_GC_PAUSE_FLAGS } = await gcPauses();
    const set: string[] = [];
    expect(keepGcPausesShort({ SHORT_GC_PAUSES: '1' }, ['--max-semi-space-size=8'], (flag) => set.push(flag))).toBe(false);
    expect(keepGcPausesShort({ SHORT_GC_PAUSES: '1' }, ['--max_semi_space_size', '8'], (flag) => set.push(flag))).toBe(false);
    expect(set).toEqual([]);
    expect(keepGcPausesShort({ SHORT_GC_PAUSES: '1' }, ['--enable-source-maps'], (flag) => set.push(flag))).toBe(true);
    expect(set).toEqual(SHORT_GC_PAUSE_FLAGS);
  });

  it('When SHORT_GC_PAUSES is neither on nor off, then the configuration says so (exit code 2), as for any variable', () => {
    const parsed = parseArgs([], {});
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    expect(configFromOptions(parsed.options, { SHORT_GC_PAUSES: 'maybe' }).errors).toEqual(["SHORT_GC_PAUSES must be 1 or 0 (true or false), got 'maybe'"]);
    expect(configFromOptions(parsed.options, { SHORT_GC_PAUSES: '1' }).errors).toEqual([]);
  });
});
