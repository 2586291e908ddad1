import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataFileLock, lockPath } from '../../src/store/data-file-lock.js';
import { JournalPersistence } from '../../src/store/persistence-journal.js';
import { StoreFileError } from '../../src/store/persistence.js';
import { cleanupAfterEach, lines, spawnChild } from './helpers.js';

const { setup, defer } = cleanupAfterEach();

/** The pid of a process that has exited (so `kill(pid, 0)` answers ESRCH). */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
}

describe('one process per data file', () => {
  it('When the file is free, then the lock file holds our pid until close() removes it', async () => {
    const { file } = setup();
    const p = JournalPersistence.open(file);
    expect(readFileSync(lockPath(file), 'utf8').trim()).toBe(String(process.pid));
    await p.close();
    expect(existsSync(lockPath(file))).toBe(false);
  });

  it('When a lock names a dead pid, then it is taken over', async () => {
    const { file } = setup();
    const dead = deadPid();
    writeFileSync(lockPath(file), `${dead}\n`);
    const p = JournalPersistence.open(file);
    expect(readFileSync(lockPath(file), 'utf8').trim()).toBe(String(process.pid));
    await p.close();
  });

  it('When a lock names our own pid but this process does not hold it, then it is a previous run (pid reuse in containers) and taken over', () => {
    const { file } = setup();
    writeFileSync(lockPath(file), `${process.pid}\n`);
    const lock = acquireDataFileLock(file);
    lock.release();
    expect(existsSync(lockPath(file))).toBe(false);
  });

  it('When the lock file is empty and was just written, then another process may be claiming it: refused, the pid unknown', () => {
    const { file } = setup();
    writeFileSync(lockPath(file), '');
    expect(() => acquireDataFileLock(file)).toThrow(`The data file ${file} is in use by another sandbox process (pid unknown; lock file ${lockPath(file)}).`);
    expect(readFileSync(lockPath(file), 'utf8')).toBe('');
  });

  it('When the lock file holds no pid and is older than a second, then a claim died half-way: it is taken over', () => {
    const { file } = setup();
    writeFileSync(lockPath(file), 'not a pid\n');
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath(file), aMinuteAgo, aMinuteAgo);
    const lock = acquireDataFileLock(file);
    expect(readFileSync(lockPath(file), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lockPath(file))).toBe(false);
  });

  it("When the data file's folder is a file, then opening it is refused with a StoreFileError naming the data file", () => {
    const { dir } = setup();
    const notAFolder = join(dir, 'plain.txt');
    writeFileSync(notAFolder, 'text');
    const file = join(notAFolder, 'sandbox.json');
    expect(() => JournalPersistence.open(file)).toThrow(StoreFileError);
    expect(() => JournalPersistence.open(file)).toThrow(new RegExp(`^The data file ${file} cannot be locked for this process \\(E`));
  });

  it('When the lock file is a directory, then opening is refused with a StoreFileError naming the data file', () => {
    const { file } = setup();
    mkdirSync(lockPath(file));
    expect(() => JournalPersistence.open(file)).toThrow(StoreFileError);
  });

  it("When the data file is reached through a symbolic link, then the lock is the file's own: a second open by the other name is refused, and a snapshot replaces the file, not the link", async () => {
    const { dir, file } = setup();
    const link = join(dir, 'link.json');
    writeFileSync(file, JSON.stringify({ format: 1, seed: 1, collections: {} }));
    symlinkSync(file, link);
    const p = JournalPersistence.open(link);
    defer(() => p.close());
    expect(() => JournalPersistence.open(file)).toThrow(`The data file ${file} is in use by another sandbox process (pid ${process.pid};`);
    await p.load();
    await p.replaceAll({ format: 1, seed: 2, collections: {} });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).seed).toBe(2);
  });

  it('When this process already holds the file, then opening it again is refused', async () => {
    const { file } = setup();
    const p = JournalPersistence.open(file);
    defer(() => p.close());
    expect(() => JournalPersistence.open(file)).toThrow(StoreFileError);
  });

  it('When a live process holds the file, then this one is refused with a message naming the file and its pid', async () => {
    const { file } = setup();
    const holder = spawnChild('hold-lock.ts', [file]);
    defer(() => holder.kill('SIGKILL'));
    const out = lines(holder);
    const pid = Number((await out.until((l) => l.startsWith('ready '))).split(' ')[1]);
    expect(pid).toBe(holder.pid);

    const error = (() => {
      try {
        JournalPersistence.open(file);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(`pid ${pid}`);
  });

  it('When this process holds the file, then a second process is refused and our lock stays', async () => {
    const { file } = setup();
    const p = JournalPersistence.open(file);
    defer(() => p.close());
    const child = spawnChild('try-open.ts', [file]);
    const out = lines(child);
    const line = await out.until((l) => l.startsWith('refused ') || l === 'opened');
    expect(line).toContain(`pid ${process.pid}`);
    expect(line).toContain(file);
    await out.exited;
    expect(readFileSync(lockPath(file), 'utf8').trim()).toBe(String(process.pid));
  });

  it('When the holder was killed with SIGKILL, then the next process takes the file over', async () => {
    const { file } = setup();
    const holder = spawnChild('hold-lock.ts', [file]);
    const out = lines(holder);
    await out.until((l) => l.startsWith('ready '));
    holder.kill('SIGKILL');
    await out.exited;
    expect(readFileSync(lockPath(file), 'utf8').trim()).toBe(String(holder.pid));

    const p = JournalPersistence.open(file);
    expect(await p.load()).toEqual({ format: 1, seed: 1, collections: {} });
    await p.close();
  });
});
