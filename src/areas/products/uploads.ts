// Where uploaded product images keep their bytes. A file-backed world keeps them beside its data file
// (`<dir of DATA_FILE>/uploads/<storage_key>`), so they survive a restart with the records that name them; a
// memory world keeps them in memory and forgets them on exit, like the rest of its state.
import { mkdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../../config.js';
import type { Collections } from '../../store/store.js';

/** The bytes of uploaded files, by storage key (see uploadStorageKey). */
export interface UploadStorage {
  write(key: string, bytes: Buffer): void;
  read(key: string): Buffer | undefined;
  remove(key: string): void;
  /** Forgets every file (a world reset). */
  clear(): void;
}

class MemoryUploads implements UploadStorage {
  private readonly files = new Map<string, Buffer>();
  write(key: string, bytes: Buffer): void {
    this.files.set(key, Buffer.from(bytes));
  }
  read(key: string): Buffer | undefined {
    return this.files.get(key);
  }
  remove(key: string): void {
    this.files.delete(key);
  }
  clear(): void {
    this.files.clear();
  }
}

class DirectoryUploads implements UploadStorage {
  constructor(private readonly root: string) {}
  write(key: string, bytes: Buffer): void {
    const path = join(this.root, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  }
  read(key: string): Buffer | undefined {
    try {
      return readFileSync(join(this.root, key));
    } catch {
      return undefined;
    }
  }
  remove(key: string): void {
    const path = join(this.root, key);
    rmSync(path, { force: true });
    // Each image has its own directory; leave it only if something else is in it.
    try {
      rmdirSync(dirname(path));
    } catch {
      /* not empty or already gone */
    }
  }
  clear(): void {
    rmSync(join(this.root, 'product-images'), { recursive: true, force: true });
  }
}

// One storage per world (keyed by its collections object, which survives reset and reload), so the merchant
// cascade, which only gets the collections, can still remove files.
const registry = new WeakMap<Collections, UploadStorage>();

/** The upload storage of a world, created on first use from the configuration. */
export function uploadStorageFor(store: Collections, config: Pick<Config, 'store' | 'dataFile'>): UploadStorage {
  let storage = registry.get(store);
  if (!storage) {
    storage = config.store === 'file' ? new DirectoryUploads(resolve(dirname(config.dataFile), 'uploads')) : new MemoryUploads();
    registry.set(store, storage);
  }
  return storage;
}

/** The world's upload storage if one was created (the app creates it at start); cascades use it to remove files. */
export function registeredUploadStorage(store: Collections): UploadStorage | undefined {
  return registry.get(store);
}

/** Removes every uploaded file of a world; for a reset, whose reseeded records name none of them. */
export function clearUploads(store: Collections): void {
  registry.get(store)?.clear();
}
