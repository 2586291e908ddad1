// npx tsx bench/workspaces-only.ts [--smoke] [--rounds N] [--commit <c>]: only the workspace section of `npm run
// bench`, on the built server (run `npm run build` first), for a quick look at the figures of issue 13 item 5.
// --commit measures the server built at an earlier commit instead (bench/baseline-commit.ts), for a before/after
// on the same machine; the in-process memory probe always runs this checkout's code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeStore } from './grow-store.js';
import { loadToolName } from './load-tool.js';
import { prepareBaseline } from './baseline-commit.js';
import { benchWorkspaces, workspaceChecks } from './workspace-bench.js';

const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const roundsArg = argv.indexOf('--rounds');
const rounds = roundsArg >= 0 ? Number(argv[roundsArg + 1]) : smoke ? 1 : 5;
const commitArg = argv.indexOf('--commit');
const build = commitArg >= 0 ? prepareBaseline(argv[commitArg + 1]!) : undefined;
if (build && 'skipped' in build) throw new Error(build.skipped);
const values = new Map<string, number[]>();
const median = (key: string) => {
  const xs = [...(values.get(key) ?? [NaN])].sort((a, b) => a - b);
  const m = Math.floor(xs.length / 2);
  return xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
};
const log = (line: string) => process.stdout.write(`${line}\n`);

const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-ws-'));
try {
  await writeStore(join(dir, 'small.json'), 0);
  const note = (key: string, _label: string, _unit: string, value: number) => values.set(key, [...(values.get(key) ?? []), value]);
  await benchWorkspaces({
    smoke,
    rounds,
    pageSeconds: smoke ? 1 : 5,
    connections: 32,
    tool: loadToolName(),
    dataFile: join(dir, 'small.json'),
    serverRoot: build?.root,
    log,
    note,
  });
  if (build) log(`\n(the server built at ${build.commit})`);
  log('\n| target | measured (medians) | |\n|---|---|---|');
  for (const c of workspaceChecks(median, smoke ? 1000 : 10_000))
    log(`| ${c.target} | ${c.measured} | ${smoke ? 'smoke, not judged' : c.ok ? 'met' : 'SHORT'} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
