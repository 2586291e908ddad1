// `commerce-operations-sandbox wait`: readiness with a deadline, ended at once by the sandbox's own exit. The loop runs
// on an injected clock and injected checks; the command itself runs against a real sandbox and a closed port.
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseClientArgs } from '../../src/cli/client-args.js';
import { POLL_INTERVAL_MS, waitReady, type WaitDeps } from '../../src/cli/wait-ready.js';
import { projectRoot } from '../../src/paths.js';
import { startSandbox } from '../../src/start-sandbox.js';
import { freePort, userEnv } from '../helpers/server-process.js';
import { builtEntry } from '../helpers/built-entries.js';

/** A clock that moves only when the loop sleeps or a check takes time; checks answer from a script. */
function scripted(answers: (true | string)[], opts: { checkMs?: number; diesAtMs?: number } = {}) {
  let now = 0;
  const asked: number[] = [];
  const deps: WaitDeps = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    alive: () => opts.diesAtMs === undefined || now < opts.diesAtMs,
    check: async () => {
      asked.push(now);
      now += opts.checkMs ?? 1;
      return answers.length > 1 ? answers.shift()! : answers[0]!;
    },
  };
  return { deps, asked, now: () => now };
}

const cli = (args: string[]): Promise<{ code: number | null; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [builtEntry('cli/client-main'), ...args], { cwd: projectRoot, env: userEnv(), timeout: 60_000 }, (error, _out, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
    );
  });

describe('wait', () => {
  it('When the sandbox answers after a few refusals, then it is ready then, having asked every poll interval', async () => {
    const { deps, asked } = scripted(['ECONNREFUSED', 'ECONNREFUSED', 'it answered 503', true]);
    const outcome = await waitReady('http://127.0.0.1:1', 60_000, undefined, deps);
    expect(outcome).toMatchObject({ ready: true });
    expect(asked).toEqual([0, 1 + POLL_INTERVAL_MS, 2 * (1 + POLL_INTERVAL_MS), 3 * (1 + POLL_INTERVAL_MS)]);
  });

  it('When nothing answers, then it gives up at the deadline, naming the last reason, and not before', async () => {
    const { deps, now } = scripted(['ECONNREFUSED']);
    const outcome = await waitReady('http://127.0.0.1:1', 5_000, undefined, deps);
    expect(outcome).toEqual({ ready: false, why: 'no sandbox answered http://127.0.0.1:1/_sandbox/health within 5 s (last: ECONNREFUSED)' });
    expect(now()).toBeGreaterThanOrEqual(5_000);
    expect(now()).toBeLessThan(5_000 + POLL_INTERVAL_MS + 2);
  });

  it('When the last attempt is cut short by the deadline and times out, then the reason given is the one before it, not that timeout', async () => {
    let now = 0;
    // Each check takes 95 ms and is refused; one given less time than that times out.
    const deps: WaitDeps = {
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
      alive: () => true,
      check: async (_url, timeoutMs) => {
        now += Math.min(95, timeoutMs);
        return timeoutMs <= 95 ? `no answer within ${timeoutMs / 1000} s` : 'ECONNREFUSED';
      },
    };
    const outcome = await waitReady('http://localhost:1', 1_000, undefined, deps);
    expect(outcome).toEqual({ ready: false, why: 'no sandbox answered http://localhost:1/_sandbox/health within 1 s (last: ECONNREFUSED)' });
  });

  it('When the sandbox process exits before it answers, then it stops waiting at once, long before the deadline', async () => {
    const { deps, now } = scripted(['ECONNREFUSED'], { diesAtMs: 350 });
    const outcome = await waitReady('http://127.0.0.1:1', 600_000, 4242, deps);
    expect(outcome).toEqual({ ready: false, why: 'its process 4242 exited before it answered (its log says why)' });
    expect(now()).toBeLessThan(350 + POLL_INTERVAL_MS + 2);
  });

  it('When its flags are wrong, then each is named; SANDBOX_URL stands in for --url', () => {
    expect(parseClientArgs('wait', ['--timeout', '0', '--pid', '12abc', '--require', 'x'])).toEqual({
      ok: false,
      errors: [
        "wait takes no option '--require'; it takes --url, --timeout, --pid, --help",
        "--timeout must be a number of seconds above 0 and at most 3600, got '0'",
        "--pid must be a process id (a positive integer), got '12abc'",
      ],
    });
    const parsed = parseClientArgs('wait', ['--timeout', '2.5'], { SANDBOX_URL: 'http://127.0.0.1:4999/' });
    expect(parsed).toMatchObject({ ok: true, options: { url: 'http://127.0.0.1:4999', timeoutSeconds: 2.5 } });
  });

  it('When run against a sandbox that listens, then it exits 0; against a closed port, it exits 1 at its deadline', async () => {
    const sandbox = await startSandbox({ logLevel: 'silent', port: 0 });
    try {
      const ready = await cli(['wait', '--url', sandbox.url, '--timeout', '30']);
      expect(ready.code, ready.stderr).toBe(0);
      expect(ready.stderr).toMatch(/wait: ready at http:\/\/127\.0\.0\.1:\d+ after \d+\.\d s/);
    } finally {
      await sandbox.close();
    }
    const closed = await cli(['wait', '--url', `http://127.0.0.1:${await freePort()}`, '--timeout', '1']);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/not ready: no sandbox answered .* within 1 s \(last: ECONNREFUSED\)/);
  }, 60_000);
});
