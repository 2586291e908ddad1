// startSandbox() as a test runner calls it, with options taken from its own environment.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../../src/config.js';
import { StartOptionsError, startSandbox } from '../../src/index.js';
import { contract } from '../helpers/app.js';

describe('startSandbox options', () => {
  it('When options are given as undefined (read from an unset variable), then each takes its default and the sandbox answers', async () => {
    const unset: Record<string, string | undefined> = {};
    const sandbox = await startSandbox({
      contract,
      host: unset.HOST,
      port: undefined,
      seed: undefined,
      logLevel: unset.LOG_LEVEL as Config['logLevel'] | undefined,
      bodyLimit: undefined,
    });
    try {
      expect(sandbox.config).toMatchObject({ host: '127.0.0.1', seed: defaultConfig.seed, logLevel: 'warn', bodyLimit: defaultConfig.bodyLimit });
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${sandbox.url}/2024-09/merchants`, { headers: { Authorization: `Bearer ${sandbox.tokens.owner}` } });
      expect(res.status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('When the port is a string of digits (process.env.PORT), then the sandbox listens on that port, as Node would', async () => {
    const probe = await startSandbox({ contract });
    const free = new URL(probe.url).port;
    await probe.close();
    const sandbox = await startSandbox({ contract, port: free as unknown as number });
    try {
      expect(sandbox.url).toBe(`http://127.0.0.1:${free}`);
      expect(sandbox.config.port).toBe(Number(free));
    } finally {
      await sandbox.close();
    }
  });

  it('When options have values the sandbox cannot run with, then it refuses with a StartOptionsError naming each, before it listens or opens a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-options-'));
    try {
      const wrong = {
        port: 'abc',
        store: 'disk',
        logLevel: 'loud',
        seed: -1,
        bodyLimit: Number.NaN,
        multipart: { maxFields: 4 },
      } as unknown as Partial<Config>;
      const refusal = await startSandbox({ contract, ...wrong }).then(
        (sandbox) => sandbox.close().then(() => undefined),
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(StartOptionsError);
      const message = (refusal as Error).message;
      for (const named of [
        "port must be an integer from 0 to 65535, got 'abc'",
        "store must be 'file' or 'memory', got 'disk'",
        "logLevel must be one of error, warn, info, debug, silent, got 'loud'",
        'seed must be an integer from 0 to 4294967295, got -1',
        'bodyLimit must be a whole number, 0 or more, got NaN',
        'multipart.maxFieldBytes must be a whole number, 0 or more, got undefined',
      ])
        expect(message).toContain(named);

      await expect(startSandbox({ contract, store: 'file', dataFile: join(dir, 'data.json'), port: 70_000 })).rejects.toThrow(StartOptionsError);
      expect(existsSync(join(dir, 'data.json.lock'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
