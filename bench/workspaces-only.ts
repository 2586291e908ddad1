// npx tsx bench/workspaces-only.ts [--smoke] [--rounds N]: only the workspace section of `npm run bench`, on the
// built server (run `npm run build` first), for a quick look at the figures of issue 13 item 5.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeStore } from './grow-store.js';
import { loadToolName } from './load-tool.js';
import { benchWorkspaces, workspaceChecks } from './workspace-bench.js';

const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const roundsArg = argv.indexOf('--rounds');
const rounds = roundsArg >= 0 ? Number(argv[roundsArg + 1]) : smoke ? 1 : 5;
const values = new Map<string, number[]>();
const median = (key: string) => {
  const xs = [...(values.get(key) ?? [NaN])].sort((a, b) => a - b);
  const m = Math.floor(xs.length / 2);
  return xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
};
const log = (line: string) => process.stdout.write(line + '\n');

const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-ws-'));
try {
  await writeStore(join(dir, 'small.json'), 0);
  const note = (key: string, _label: string, _unit: string, value: number) => values.set(key, [...(values.get(key) ?? []), value]);
  await benchWorkspaces({ smoke, rounds, pageSeconds: smoke ? 1 : 5, connections: 32, tool: loadToolName(), dataFile: join(dir, 'small.json'), log, note });
  log('\n| target | measured (medians) | |\n|---|---|---|');
  for (const c of workspaceChecks(median, smoke ? 1000 : 10_000)) log(`| ${c.target} | ${c.measured} | ${smoke ? 'smoke, not judged' : c.ok ? 'met' : 'SHORT'} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
