// npx tsx bench/catch-up-only.ts [--rounds N] [--sources]: only the scraping catch-up section of `npm run bench`,
// on the built server (run `npm run build` first), or with --sources on this checkout's sources (no build).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeStore } from './grow-store.js';
import { benchCatchUpStall, catchUpChecks } from './catch-up-stall.js';
import { freePort, OWNER_TOKEN, startProcess } from './servers.js';

const argv = process.argv.slice(2);
const roundsArg = argv.indexOf('--rounds');
const rounds = roundsArg >= 0 ? Number(argv[roundsArg + 1]) : 3;
const values = new Map<string, number[]>();
const median = (key: string) => {
  const xs = [...(values.get(key) ?? [NaN])].sort((a, b) => a - b);
  const m = Math.floor(xs.length / 2);
  return xs.length % 2 ? xs[m]! : (xs[m - 1]! + xs[m]!) / 2;
};
const log = (line: string) => process.stdout.write(`${line}\n`);
const fromSources = async (dataFile: string) => {
  const port = await freePort();
  return startProcess({
    name: 'sandbox (sources)',
    args: ['--import', 'tsx', 'src/main.ts'],
    env: { PORT: String(port), HOST: '127.0.0.1', DATA_FILE: dataFile, STORE: 'file', LOG_LEVEL: 'warn' },
    port,
    probe: '/2024-09/users/current',
    headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
    timeoutMs: 60_000,
  });
};

const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-catch-up-'));
try {
  await writeStore(join(dir, 'small.json'), 0);
  const note = (key: string, _label: string, _unit: string, value: number) => values.set(key, [...(values.get(key) ?? []), value]);
  await benchCatchUpStall({ rounds, dataFile: join(dir, 'small.json'), dir, log, note, start: argv.includes('--sources') ? fromSources : undefined });
  log('\n| target | measured (medians) | |\n|---|---|---|');
  for (const c of catchUpChecks(median)) log(`| ${c.target} | ${c.measured} | ${c.ok ? 'met' : 'SHORT'} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
