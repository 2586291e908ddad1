import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer, startServer, stopServer, tempStore, killStragglers, PROCESS_TEST_TIMEOUT } from './server-process.js';

afterEach(killStragglers);

describe('one process per data file', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('When a second server is pointed at a file in use, then it refuses to start, naming the file and the running pid', async () => {
    const { file, cleanup } = tempStore();
    try {
      const first = await startServer(file);
      try {
        const second = spawnServer(file);
        expect(await second.exited).toBe(1);
        expect(second.stderr()).toContain(file);
        expect(second.stderr()).toContain(`pid ${first.pid}`);
        expect(second.stderr()).not.toMatch(/\n\s+at /); // a message, not a stack trace
        expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(first.pid));
      } finally {
        expect(await stopServer(first)).toBe(0);
      }
    } finally {
      cleanup();
    }
  });

  it('When the lock names a process that is gone, then the server takes it over and starts', async () => {
    const { file, cleanup } = tempStore();
    try {
      // Seed the file, then leave a lock of a pid that has certainly exited.
      expect(await stopServer(await startServer(file))).toBe(0);
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
      writeFileSync(`${file}.lock`, `${dead}\n`);
      const server = await startServer(file);
      try {
        expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(server.pid));
      } finally {
        expect(await stopServer(server)).toBe(0);
      }
    } finally {
      cleanup();
    }
  });
});
