// Where uploaded product images keep their bytes. A file-backed world keeps them beside its data file
// (`<DATA_FILE>.uploads/<storage_key>`), so they survive a restart with the records that name them; a memory world
// keeps them in memory and forgets them on exit, like the rest of its state.
import { mkdirSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import { canonicalDataFile } from '../../store/journal-files.js';
import { QuotaExceeded } from '../../store/quota-exceeded.js';
import { workspaceIdOf, type World } from '../../world.js';
import { resourceKind } from '../../world-resources.js';

/**
 * The bytes of uploaded files, by storage key (see uploadStorageKey). Writing is synchronous because it happens
 * inside the upload's transaction (at most 5 MiB, rarely); reading serves image URLs, off the event loop.
 */
export interface UploadStorage {
  write(key: string, bytes: Buffer): void;
  read(key: string): Promise<Buffer | undefined>;
  remove(key: string): void;
  /** Forgets every file (a world reset). */
  clear(): void;
  /** Bytes of every file held, when the storage counts them (a workspace's does, for its quota); else undefined. */
  held(): number | undefined;
}

/** Files held in memory, at most `maxBytes` of them together (a workspace's upload quota). */
class MemoryUploads implements UploadStorage {
  private readonly files = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes = Infinity) {}
  write(key: string, bytes: Buffer): void {
    const held = this.bytes - (this.files.get(key)?.length ?? 0) + bytes.length;
    if (held > this.maxBytes) throw new QuotaExceeded('upload bytes', this.maxBytes);
    this.files.set(key, Buffer.from(bytes));
    this.bytes = held;
  }
  async read(key: string): Promise<Buffer | undefined> {
    return this.files.get(key);
  }
  remove(key: string): void {
    this.bytes -= this.files.get(key)?.length ?? 0;
    this.files.delete(key);
  }
  clear(): void {
    this.files.clear();
    this.bytes = 0;
  }
  held(): number {
    return this.bytes;
  }
}

class DirectoryUploads implements UploadStorage {
  /** `earlier`: a folder an earlier version kept files in, read (and removed from) but never written or cleared. */
  constructor(
    private readonly root: string,
    private readonly earlier?: string,
  ) {}
  write(key: string, bytes: Buffer): void {
    const path = join(this.root, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  }
  async read(key: string): Promise<Buffer | undefined> {
    return (await readIn(this.root, key)) ?? (this.earlier === undefined ? undefined : await readIn(this.earlier, key));
  }
  remove(key: string): void {
    removeIn(this.root, key);
    if (this.earlier !== undefined) removeIn(this.earlier, key);
  }
  clear(): void {
    rmSync(join(this.root, 'product-images'), { recursive: true, force: true });
  }
  held(): undefined {
    return undefined;
  }
}

async function readIn(root: string, key: string): Promise<Buffer | undefined> {
  try {
    return await readFile(join(root, key));
  } catch {
    return undefined;
  }
}

function removeIn(root: string, key: string): void {
  const path = join(root, key);
  rmSync(path, { force: true });
  // Each image has its own directory; leave it only if something else is in it.
  try {
    rmdirSync(dirname(path));
  } catch {
    /* not empty or already gone */
  }
}

// A reset or deleted world's files go with it: its reseeded records (or nothing) name none of them.
const UPLOADS = resourceKind<UploadStorage>('uploads', (storage) => storage.clear());

/**
 * The upload storage of a world, created on first use from the configuration. Only the default world of a
 * file-backed sandbox keeps files on disk; a workspace is an in-memory world, so its uploads are too, within the
 * workspace's upload quota.
 */
export function uploadStorageFor(world: World, config: Pick<Config, 'store' | 'dataFile' | 'workspaceMaxUploadBytes'>): UploadStorage {
  const workspace = workspaceIdOf(world) !== undefined;
  const onDisk = config.store === 'file' && !workspace;
  return world.resources.of(UPLOADS, () =>
    onDisk
      ? new DirectoryUploads(uploadsFolderOf(config.dataFile), earlierUploadsFolderOf(config.dataFile))
      : new MemoryUploads(workspace ? config.workspaceMaxUploadBytes : Infinity),
  );
}

/**
 * The folder of a data file's uploaded files: its own, named after it like its journals and lock, so two data files
 * in one folder never share (a reset of one cleared the other's files).
 */
export function uploadsFolderOf(dataFile: string): string {
  return `${canonicalDataFile(resolve(dataFile))}.uploads`;
}

/**
 * The `uploads/` folder beside the data file where an earlier version kept every data file's uploads: the files
 * its records name are still read from there, in place. It is never moved or cleared, since it may hold another data
 * file's files, or files that are not the sandbox's at all.
 */
function earlierUploadsFolderOf(dataFile: string): string {
  return join(dirname(canonicalDataFile(resolve(dataFile))), 'uploads');
}
