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
let running = true;
process.stdin.on('end', () => (running = false)).resume();
const waits = [];
process.stdout.write('ready\\n');
(async () => {
  while (running) {
    const started = performance.now();
    try { await (await fetch(process.env.PROBE_URL + '/_sandbox/health')).arrayBuffer(); } catch {}
    waits.push(Math.round(performance.now() - started));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.stdout.write(JSON.stringify(waits) + '\\n');
})();
`;

/** Starts probing `url`'s health; resolves once the probe runs. `stop()` answers what it saw. */
export async function healthProbe(url: string): Promise<{ stop(): Promise<HealthWaits> }> {
  const child = spawn(process.execPath, ['-e', PROBE], { env: { ...process.env, PROBE_URL: url, NODE_OPTIONS: '' }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('ready\n') && resolve());
    child.once('exit', () => reject(new Error('the health probe exited before it ran')));
  });
  return {
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
      const waits = JSON.parse(out.slice(out.indexOf('\n') + 1)) as number[];
      return { waits, max: Math.max(0, ...waits), p99: p99(waits) };
    },
  };
}
