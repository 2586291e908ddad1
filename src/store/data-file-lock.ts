import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { asStoreFileError, StoreFileError } from './persistence.js';

/** Lock files this process holds: a lock naming our own pid that is not in here was left by an earlier process. */
const heldHere = new Set<string>();

/** The lock file that keeps a second process off a data file: two writers would lose each other's updates. */
export function lockPath(dataFile: string): string {
  return `${dataFile}.lock`;
}

/** An exclusive claim on a data file, held until release() or process exit. */
export interface DataFileLock {
  readonly path: string;
  release(): void;
}

/**
 * Claims `dataFile` for this process: creates `<data>.lock` holding our pid with O_EXCL ('wx'), so exactly one
 * process wins. A lock whose pid is dead is taken over; one whose pid is alive stops us with a StoreFileError
 * naming the file and that pid.
 */
export function acquireDataFileLock(dataFile: string): DataFileLock {
  try {
    return claim(dataFile);
  } catch (error) {
    throw asStoreFileError(dataFile, 'locked for this process', error);
  }
}

function claim(dataFile: string): DataFileLock {
  const path = lockPath(dataFile);
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
      return holdLock(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readOwner(path);
    if (owner === 'gone') continue;
    if (owner === 'unreadable') {
      // writeFileSync creates then writes: an empty lock younger than a second may be another process mid-claim.
      if (Date.now() - mtimeMs(path) < 1000) throw inUse(dataFile, path, 'unknown');
    } else if (isAlive(owner, path)) {
      throw inUse(dataFile, path, owner);
    }
    takeOverStale(path, owner);
  }
  throw new StoreFileError(dataFile, `Could not claim the data file ${dataFile}: its lock file ${path} keeps changing.`);
}

function holdLock(path: string): DataFileLock {
  heldHere.add(path);
  // A normal exit without close() (an uncaught error) should not leave a lock behind for the next start.
  const onExit = () => release();
  process.once('exit', onExit);
  let released = false;
  function release(): void {
    if (released) return;
    released = true;
    process.removeListener('exit', onExit);
    heldHere.delete(path);
    // Only remove the lock if it is still ours (someone may have deleted and re-claimed it by hand).
    if (readOwner(path) === process.pid) unlinkSync(path);
  }
  return { path, release };
}

/**
 * Moves a dead process's lock aside with one atomic rename, so that when two starting processes both find it
 * stale only one of them removes it; the loser finds the lock gone or freshly re-claimed and retries.
 */
function takeOverStale(path: string, stalePid: number | 'unreadable'): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readOwner(aside);
  if (moved !== stalePid && moved !== 'unreadable' && moved !== 'gone' && isAlive(moved, path)) {
    // We moved a lock another process claimed a moment ago: put it back (link fails if the path was taken again).
    try {
      linkSync(aside, path);
    } catch {
      /* the retry loop reports whoever holds the path now */
    }
  }
  unlinkSync(aside);
}

function readOwner(path: string): number | 'unreadable' | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : 'unreadable';
}

function isAlive(pid: number, path: string): boolean {
  // Our own pid in a lock we do not hold: a previous run of this program had our pid (pid 1 in a container).
  if (pid === process.pid) return heldHere.has(path);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function inUse(dataFile: string, path: string, pid: number | 'unknown'): StoreFileError {
  return new StoreFileError(
    dataFile,
    `The data file ${dataFile} is in use by another sandbox process (pid ${pid}; lock file ${path}). ` +
      `Stop that process or point this one at another file (DATA_FILE). If that process is gone, delete ${path}.`,
  );
}
