// A bundle file given at start (--load, startSandbox({ load: path })): read within BUNDLE_MAX_BYTES whatever it is.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BundleRefused, readBundleFile } from '../../src/sandbox/bundle-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bundle-file-'));
  dirs.push(dir);
  return dir;
};
const refusalOf = (read: () => unknown): unknown => {
  try {
    read();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('readBundleFile', () => {
  it('When the bundle comes through a pipe (no size to stat), then BUNDLE_MAX_BYTES still bounds what is read', async () => {
    const fifo = join(tempDir(), 'run.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Another process writes 2 MiB of JSON into the pipe, as `--load <(gunzip -c run.json.gz)` would.
    const writer = spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(fifo)}, ' '.repeat(2 * 1024 * 1024) + '{}')`], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => writer.on('exit', resolve));
    const error = refusalOf(() => readBundleFile(fifo, 1024 * 1024));
    writer.kill();
    await exited;
    expect(error).toBeInstanceOf(BundleRefused);
    expect((error as Error).message).toBe(`${fifo}: the bundle is larger than 1 MiB (BUNDLE_MAX_BYTES); nothing was loaded.`);
  });

  it('When the bundle path is a directory, then it cannot be read (EISDIR), rather than being called invalid JSON', () => {
    const dir = join(tempDir(), 'run.json');
    mkdirSync(dir);
    const error = refusalOf(() => readBundleFile(dir, 1024 * 1024));
    expect(error).toBeInstanceOf(BundleRefused);
    expect((error as Error).message).toBe(`${dir}: cannot read the bundle (EISDIR).`);
  });

  it('When the bundle is a file within the limit, then its JSON is answered', () => {
    const dir = tempDir();
    const file = join(dir, 'run.json');
    writeFileSync(file, '{"format":"x"}');
    expect(readBundleFile(file, 1024)).toEqual({ format: 'x' });
  });
});
