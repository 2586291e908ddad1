// Another client's view of a server under load: how long each health check waits, asked at a fixed rate from a
// process of its own, so the test's own work (building and sending large bodies) does not count as the server's.
import { spawn } from 'node:child_process';

/** What the probe saw: each wait in ms, their median, 99th percentile and maximum. */
export interface HealthWaits {
  waits: number[];
  p50: number;
  p99: number;
  max: number;
}

/** The `q` quantile of some waits (the nearest rank: for fewer than 100, the 99th percentile is the largest). */
export function quantile(waits: readonly number[], q: number): number {
  if (waits.length === 0) return 0;
  const sorted = [...waits].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))]!;
}

/** The 99th percentile of some waits (the largest for fewer than 100). */
export const p99 = (waits: readonly number[]): number => quantile(waits, 0.99);

/** Milliseconds between two health checks the probe starts. */
export const PROBE_PERIOD_MS = 10;
/** Checks in flight at most: a tick that finds them all waiting sends none (the waiting ones say how long). */
const PROBE_SOCKETS = 4;
/** The longest a probe runs, whatever its caller does. */
const PROBE_MAX_MS = 180_000;

// Asks health every PROBE_PERIOD_MS on kept-alive connections of its own, from the moment its first connections
// are open and warm (a first request also loads the HTTP client: tens of milliseconds that are the probe's, not
// the server's), until its stdin closes, it made PROBE_COUNT checks, or PROBE_MAX_MS passed; then prints the waits
// as JSON. A wait runs from the request's start to its answer's last byte; a failed request counts as the time it
// took.
const PROBE = `
const http = require('node:http');
const count = Number(process.env.PROBE_COUNT || Infinity);
const agent = new http.Agent({ keepAlive: true, maxSockets: ${PROBE_SOCKETS} });
const check = () => new Promise((resolve) => {
  const started = performance.now();
  const done = () => resolve(Math.round((performance.now() - started) * 10) / 10);
  http.get(process.env.PROBE_URL + '/_sandbox/health', { agent }, (res) => res.resume().on('end', done).on('error', done)).on('error', done);
});
let running = true;
process.stdin.on('end', () => (running = false)).resume();
(async () => {
  await Promise.all(Array.from({ length: ${PROBE_SOCKETS} }, check));
  await check();
  process.stdout.write('ready\\n');
  const waits = [];
  const pending = new Set();
  const started = performance.now();
  let sent = 0;
  await new Promise((stop) => {
    const timer = setInterval(() => {
      if (!running || sent >= count || performance.now() - started > ${PROBE_MAX_MS}) return clearInterval(timer), stop();
      if (pending.size >= ${PROBE_SOCKETS}) return;
      sent++;
      const one = check().then((wait) => (waits.push(wait), pending.delete(one)));
      pending.add(one);
    }, ${PROBE_PERIOD_MS});
  });
  await Promise.all(pending);
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
      return { waits, p50: quantile(waits, 0.5), p99: p99(waits), max: Math.max(0, ...waits) };
    },
  };
}

/** What health waits on this machine as it is now, the server idle: `count` checks, PROBE_PERIOD_MS apart. */
export async function healthBaseline(url: string, count = 40): Promise<HealthWaits> {
  return (await healthProbe(url, count)).stop();
}

/**
 * The most a health check may wait while the server is under a flood, on a shared and noisy machine: a second, or
 * five times the idle 99th percentile measured in the same run when the machine is slower than that.
 */
export const floodBound = (baseline: HealthWaits): number => Math.max(1000, 5 * baseline.p99);
