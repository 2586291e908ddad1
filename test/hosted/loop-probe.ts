// What another client sees while a test's heavy requests run, and what the server's own work held: health checks
// asked every 10 ms from a process of their own (test/regressions/health-probe.ts), and the CPU time the
// server's thread spent between two turns of its event loop. The server runs in the test's process, so a timer
// here ticks on its loop; CPU time, unlike the wall clock, does not grow when a noisy machine's other processes
// take the cores, so it measures the longest piece of work itself.
import { Agent, request } from 'node:http';
import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';
import { healthProbe, type HealthWaits } from '../regressions/health-probe.js';

/** What a probe saw. */
export interface Held {
  /** Health checks' waits, as another client saw them. */
  health: HealthWaits;
  /** CPU milliseconds the loop's thread spent between two ticks of a 1 ms timer: the longest, and the 99th percentile. */
  cpuMax: number;
  cpuP99: number;
  /**
   * The same spans less the garbage collector's pauses within them: the longest piece of the work itself. A pause
   * is what the heap asks, and on a loaded machine a major collection's main-thread part ran 14-30 ms of CPU.
   */
  workMax: number;
  /** The longest garbage-collection pause seen (wall clock). */
  gcMax: number;
}

/** This thread's CPU time (process.threadCpuUsage: both CI Nodes have it; the installed @types/node does not name it yet). */
const threadCpu = (process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage.bind(process);

const cpuMs = () => {
  const { user, system } = threadCpu();
  return (user + system) / 1000;
};

/** One span between two ticks: when it started and ended (performance.now()), and the CPU spent in it. */
interface Span {
  from: number;
  to: number;
  cpu: number;
}

/** Records the CPU time spent between consecutive ticks of the event loop, and the GC pauses, until stopped. */
function cpuBetweenTicks(): { stop(): { spans: Span[]; pauses: PerformanceEntry[] } } {
  const spans: Span[] = [];
  const pauses: PerformanceEntry[] = [];
  const gc = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  gc.observe({ entryTypes: ['gc'] });
  let last = cpuMs();
  let lastAt = performance.now();
  const timer = setInterval(() => {
    const now = cpuMs();
    const at = performance.now();
    spans.push({ from: lastAt, to: at, cpu: now - last });
    last = now;
    lastAt = at;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      // Entries still buffered are delivered by takeRecords.
      pauses.push(...gc.takeRecords());
      gc.disconnect();
      return { spans, pauses };
    },
  };
}

/** The CPU of a span less the GC pauses that began within it. */
const workOf = (span: Span, pauses: readonly PerformanceEntry[]) =>
  Math.max(0, span.cpu - pauses.filter((p) => p.startTime >= span.from && p.startTime < span.to).reduce((sum, p) => sum + p.duration, 0));

/** Runs `work` while another process checks the server's health and the loop's pieces of work are timed. */
export async function whileProbing(url: string, work: () => Promise<unknown>): Promise<Held> {
  const probe = await healthProbe(url);
  const cpu = cpuBetweenTicks();
  let seen: { spans: Span[]; pauses: PerformanceEntry[] };
  try {
    await work();
  } finally {
    seen = cpu.stop();
  }
  const health = await probe.stop();
  const { spans, pauses } = seen;
  const cpus = spans.map((s) => s.cpu).sort((a, b) => a - b);
  return {
    health,
    cpuMax: cpus.at(-1) ?? 0,
    cpuP99: cpus[Math.max(0, Math.ceil(cpus.length * 0.99) - 1)] ?? 0,
    workMax: Math.max(0, ...spans.map((s) => workOf(s, pauses))),
    gcMax: Math.max(0, ...pauses.map((p) => p.duration)),
  };
}

const agent = new Agent({ keepAlive: false });

/**
 * A POST of `body` (JSON) on a connection of its own, written as it is (no copy of its bytes, which fetch makes on
 * the loop the server shares with this test); answers its status.
 */
export function post(url: string, path: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers = { 'content-type': 'application/json', 'content-length': body.length };
    const req = request(`${url}${path}`, { method: 'POST', headers, agent }, (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // A refusal may come before the body was all sent, and the server close the connection on the rest.
    req.on('error', (error) => (answered ? undefined : reject(error))).end(body);
  });
}

/** A GET of `path` with `headers`; answers its status and how many bytes came. */
export function get(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(`${url}${path}`, { headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => void (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    })
      .on('error', reject)
      .end();
  });
}

/** Runs `count` calls of `send`, `width` at a time; answers their results in the order they came. */
export async function inWaves<T>(count: number, width: number, send: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let started = 0;
  const lane = async () => {
    while (started < count) {
      started++;
      results.push(await send());
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}
