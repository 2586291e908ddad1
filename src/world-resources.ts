// Some per-world state lives outside the store (the simulated retailer's rate buckets, uploaded files): it is not
// reseeded with the store, so the world's reset or deletion disposes of it. Each world holds its own.

/** One kind of resource a world may keep beside its store, and how to release it. */
export interface ResourceKind<T> {
  readonly name: string;
  readonly dispose?: (value: T) => void;
}

/** Names a kind of per-world resource; `dispose` (optional) releases what one holds when its world is reset or deleted. */
export const resourceKind = <T>(name: string, dispose?: (value: T) => void): ResourceKind<T> => ({ name, dispose });

/** What one world keeps beside its store, each made on first use. */
export class WorldResources {
  private readonly values = new Map<ResourceKind<never>, unknown>();

  /** The world's resource of this kind, created by `create` on first use (and after a dispose). */
  of<T>(kind: ResourceKind<T>, create: () => T): T {
    if (this.values.has(kind)) return this.values.get(kind) as T;
    const value = create();
    this.values.set(kind, value);
    return value;
  }

  /** Releases every resource: the next use creates a fresh one. */
  dispose(): void {
    const held = [...this.values];
    this.values.clear();
    for (const [kind, value] of held) (kind.dispose as ((value: unknown) => void) | undefined)?.(value);
  }
}
