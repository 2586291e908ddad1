// Some per-world state lives outside the store (the simulated retailer's rate buckets, uploaded files): it is not
// reseeded with the store, so a world's reset or deletion must drop it too. Each such resource registers here
// once, and the world's reset and deletion dispose of every registered resource of that world in one call.
import type { Collections } from './store/store.js';

/** A resource kept per world, found by the world's collections object (the one key cascades also have). */
export interface PerWorld<T, A extends unknown[]> {
  /** The world's resource, created on first use from `args`. */
  of(store: Collections, ...args: A): T;
  /** The world's resource if it was created (cascades use it without the arguments to create one). */
  peek(store: Collections): T | undefined;
}

type Disposer = (store: Collections) => void;
const disposers: Disposer[] = [];

/**
 * Declares a per-world resource: `create` builds it on first use; `dispose` (optional) releases what it holds
 * when its world is reset or deleted. The next use after that creates a fresh one.
 */
export function perWorld<T, A extends unknown[]>(create: (...args: A) => T, dispose?: (value: T) => void): PerWorld<T, A> {
  const values = new WeakMap<Collections, T>();
  disposers.push((store) => {
    const value = values.get(store);
    if (value === undefined) return;
    values.delete(store);
    dispose?.(value);
  });
  return {
    of(store, ...args) {
      let value = values.get(store);
      if (value === undefined) values.set(store, (value = create(...args)));
      return value;
    },
    peek: (store) => values.get(store),
  };
}

/** Disposes every per-world resource of a world: called by its reset and its deletion. */
export function disposeWorldResources(store: Collections): void {
  for (const dispose of disposers) dispose(store);
}
