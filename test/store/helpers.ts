import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, inject } from 'vitest';
import type { Snapshot } from '../../src/store/persistence.js';

/** A fresh directory under the OS temp dir, removed by the returned cleanup. */
export function tempDir(): { dir: string; file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-store-'));
  return { dir, file: join(dir, 'sandbox.json'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A record shaped and sized like a stored product (~600 bytes of JSON), deterministic per index. */
export function aProduct(i: number, overrides: Record<string, unknown> = {}): { id: string } & Record<string, unknown> {
  const at = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
  return {
    id: `dddddddd-dddd-4ddd-8ddd-${i.toString(16).padStart(12, '0')}`,
    merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
    sku: `SKU-${i}`,
    name: `Ergonomic Steel Chair ${i}`,
    description: 'A sturdy chair with a breathable mesh back, adjustable arms and a five-year warranty.',
    brand: 'Demo Outfitters',
    identifiers: [{ type: 'UPC', value: String(100_000_000_000 + i) }],
    price: { value: 19.99 + (i % 100), currency: 'USD' },
    dimensions: { length: 60, width: 55, height: 110, unit: 'cm' },
    weight: { value: 12.5, unit: 'kg' },
    images: [],
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

/** A snapshot holding `products` (and an empty users collection, to check untouched collections survive). */
export function snapshotOf(products: { id: string }[], seed = 7): Snapshot {
  return { format: 1, seed, collections: { users: [], products } };
}

/**
 * Runs a script of test/store/children, built for this run (test/helpers/build-entries.ts), with `node` (no npx
 * wrapper, so the pid is the script's).
 */
export function spawnChild(script: string, args: string[]): ChildProcess {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const path = join(inject('testRun'), 'store-children', script.replace(/\.ts$/, '.js'));
  return spawn(process.execPath, [path, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Collects a child's stdout lines; `until` resolves once a line satisfies the predicate. */
export function lines(child: ChildProcess): { all: string[]; until: (match: (line: string) => boolean) => Promise<string>; exited: Promise<number | null> } {
  const all: string[] = [];
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let rest = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      all.push(line);
      for (const w of waiters.splice(0)) w.match(line) ? w.resolve(line) : waiters.push(w);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const until = (match: (line: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const found = all.find(match);
      if (found !== undefined) return resolve(found);
      waiters.push({ match, resolve });
      void exited.then((code) => reject(new Error(`child exited (${code}) before the expected line; stderr: ${stderr}`)));
    });
  return { all, until, exited };
}

/**
 * Cleanups for the tests of one file, undone after each test in reverse order: `setup()` gives a temporary data
 * directory, `defer()` registers anything else (an open persistence, a lock).
 */
export function cleanupAfterEach(): { setup: () => ReturnType<typeof tempDir>; defer: (cleanup: () => unknown) => void } {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    setup: () => {
      const t = tempDir();
      cleanups.push(t.cleanup);
      return t;
    },
    defer: (cleanup) => void cleanups.push(cleanup),
  };
}
