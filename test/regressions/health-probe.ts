// Another client's view of a server under load: how long each health check waits, asked one after another from a
// process of its own, so the test's own work (building and sending large bodies) does not count as the server's.
import { spawn } from 'node:child_process';

/** What the probe saw: each wait in ms, their maximum and 99th percentile. */
export interface HealthWaits {
  waits: number[];
  max: number;
  p99: number;
}

/** The 99th percentile of some waits (the largest for fewer than 100). */
export function p99(waits: readonly number[]): number {
  if (waits.length === 0) return 0;
  const sorted = [...waits].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

// Asks health until its stdin closes (a failed request counts as the time it took), then prints the waits as JSON.
const PROBE = `
const count = Number(process.env.PROBE_COUNT || Infinity);
let running = true;
process.stdin.on('end', () => (running = false)).resume();
const waits = [];
process.stdout.write('ready\\n');
(async () => {
  while (running && waits.length < count) {
    const started = performance.now();
    try { await (await fetch(process.env.PROBE_URL + '/_sandbox/health')).arrayBuffer(); } catch {}
    waits.push(Math.round(performance.now() - started));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.stdout.write(JSON.stringify(waits) + '\\n', () => process.exit(0));
})();
`;

/** Starts probing `url`'s health (`count` checks, or until stopped); resolves once the probe runs. `stop()` answers what it saw. */
export async function healthProbe(url: string, count?: number): Promise<{ stop(): Promise<HealthWaits> }> {
  const env = { ...process.env, PROBE_URL: url, PROBE_COUNT: count === undefined ? '' : String(count), NODE_OPTIONS: '' };
  const child = spawn(process.execPath, ['-e', PROBE], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('ready\n') && resolve());
    child.once('exit', () => reject(new Error('the health probe exited before it ran')));
  });
  return {
    async stop() {
      if (count === undefined) child.stdin.end();
      await exited;
      const waits = JSON.parse(out.slice(out.indexOf('\n') + 1)) as number[];
      return { waits, max: Math.max(0, ...waits), p99: p99(waits) };
    },
  };
}

/** What health waits on this machine as it is now, the server idle: `count` checks, one after another. */
export async function healthBaseline(url: string, count = 40): Promise<HealthWaits> {
  return (await healthProbe(url, count)).stop();
}

/**
 * The most a health check may wait while the server is under a flood, on a shared and noisy machine: a second, or
 * five times the idle 99th percentile measured in the same run when the machine is slower than that.
 */
export const floodBound = (baseline: HealthWaits): number => Math.max(1000, 5 * baseline.p99);
