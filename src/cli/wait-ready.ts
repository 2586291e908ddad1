// `commerce-operations-sandbox wait`: a CI step's readiness check. It asks GET /_sandbox/health until the sandbox
// answers 200, and gives up at a deadline, or at once when the sandbox's own process (--pid) is gone: a port in use
// or a bad flag then fails the step in a moment, with the sandbox's message in its log, not after the deadline.
import { readFileSync } from 'node:fs';

/** How often the health check is asked again while nothing answers. */
export const POLL_INTERVAL_MS = 100;
/** Longest wait for one health answer: a sandbox that accepted the connection but hangs is asked again. */
const ATTEMPT_TIMEOUT_MS = 2_000;

export type WaitOutcome = { ready: true; afterMs: number } | { ready: false; why: string };

/** What waiting needs from the world: injected so that a test drives time and processes. */
export interface WaitDeps {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Whether the process runs (a zombie, exited but not yet reaped, does not). */
  alive(pid: number): boolean;
  /** One health check: true on a 200, else why not (a status, or the connection's error code). */
  check(healthUrl: string, timeoutMs: number): Promise<true | string>;
}

/** Whether `pid` is a running process: signal 0 reaches it, and on Linux /proc does not show it a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ...", comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** What a health check answers when nothing came back within its time. */
export const noAnswerWithin = (timeoutMs: number): string => `no answer within ${timeoutMs / 1000} s`;

/** One GET of the health endpoint with global fetch. */
export async function checkHealth(healthUrl: string, timeoutMs: number): Promise<true | string> {
  try {
    const res = await fetch(healthUrl, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status === 200 ? true : `it answered ${res.status}`;
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return e.name === 'TimeoutError' ? noAnswerWithin(timeoutMs) : (e.cause?.code ?? e.message);
  }
}

export const realWaitDeps: WaitDeps = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  alive: processAlive,
  check: checkHealth,
};

/** Waits until the sandbox at `url` answers its health check, for at most `timeoutMs`, or until `pid` is gone. */
export async function waitReady(url: string, timeoutMs: number, pid: number | undefined, deps: WaitDeps = realWaitDeps): Promise<WaitOutcome> {
  const health = `${url}/_sandbox/health`;
  const start = deps.now();
  let last = 'nothing answered';
  for (;;) {
    if (pid !== undefined && !deps.alive(pid)) return { ready: false, why: `its process ${pid} exited before it answered (its log says why)` };
    const left = timeoutMs - (deps.now() - start);
    if (left <= 0) return { ready: false, why: `no sandbox answered ${health} within ${timeoutMs / 1000} s (last: ${last})` };
    const attemptMs = Math.min(ATTEMPT_TIMEOUT_MS, Math.max(1, Math.ceil(left)));
    const answer = await deps.check(health, attemptMs);
    if (answer === true) return { ready: true, afterMs: deps.now() - start };
    // A last attempt the deadline cut short timed out because of the deadline: the reason before it says more.
    const cutShort = attemptMs < ATTEMPT_TIMEOUT_MS && answer === noAnswerWithin(attemptMs);
    if (!cutShort || last === 'nothing answered') last = answer;
    await deps.sleep(Math.min(POLL_INTERVAL_MS, Math.max(0, timeoutMs - (deps.now() - start))));
  }
}
