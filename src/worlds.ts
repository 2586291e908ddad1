import { randomBytes } from 'node:crypto';
import { DEFAULT_HEAP_BUDGET_PERCENT, DEFAULT_MAX_WORKSPACES } from './config.js';
import { memoryShortage, processMemoryGauge, type MemoryGauge } from './memory-budget.js';
import { MemoryBudget } from './memory-reservations.js';
import { Clock, IdSequence, resetWorld, SeededBases, workspaceStore, type SeedTokens, type World, type WorldModel } from './world.js';
import { WorldResources } from './world-resources.js';
import type { Snapshot } from './store/persistence.js';

/** The name the default world goes by in the journal, the coverage report and the control plane. */
export const DEFAULT_WORKSPACE = 'default';

/**
 * The workspace a local sandbox keeps so that the contract's example of deleting a workspace succeeds as written
 * (Swagger UI, Postman, Dredd): there from the start, made on first use, not counted against the workspace limit.
 * Deleted, it comes back when the default world is reset; idle past its time, it comes back fresh when next named.
 * Hosted mode has none: a shared workspace any visitor could delete or fill would be no one's world.
 */
export const EXAMPLE_WORKSPACE = 'example';

/**
 * Told when a world's history ends: what is kept per world outside the registry (the journal, the coverage) goes
 * with it, so the registry need not know what that is.
 */
export interface WorldsListener {
  /** The world went back to its seeded state. */
  onReset?(name: string): void;
  /** These workspaces were deleted or expired (a sweep tells of all it deleted at once). */
  onForget?(names: readonly string[]): void;
}

/** Why a workspace was not created: the workspace limit, or memory past its budget. */
export class WorkspaceRefused extends Error {
  constructor(
    readonly reason: 'limit' | 'memory',
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'WorkspaceRefused';
  }
}

/** Limits of the workspaces a server keeps. */
export interface WorldsOptions {
  /** The default world was loaded from a workspace bundle (--load): a token of the exporting run's workspace is told so. */
  defaultLoaded?: boolean;
  /** Keep the `example` workspace (EXAMPLE_WORKSPACE): a local sandbox does, hosted mode does not. */
  exampleWorkspace?: boolean;
  /** A workspace unused for this long is deleted. Default one hour. */
  idleTtlMs?: number;
  /** At most this many workspaces at once. Default DEFAULT_MAX_WORKSPACES. */
  maxWorkspaces?: number;
  /**
   * Creating a workspace is refused once the process is past this percentage of a memory budget (heap and Buffers
   * against the old space's limit, RSS against a container's limit; see memoryShortage). Default 85.
   */
  heapBudgetPercent?: number;
  /** Reads the process's memory (tests inject one). Default: this process's, read through V8 and Node. */
  memory?: MemoryGauge;
  /** Wall clock for idleness (tests inject one). */
  now?: () => number;
  /** This replica's name (REPLICA_ID): the ids of the workspaces created here start with `<replicaId>-`. */
  replicaId?: string;
  /**
   * The frozen seeded bases workspaces and resets copy. Default: the registry's own, let go on close(). Given, they
   * are the giver's (tests share one per file, so a test's world is not seeded anew), and close() leaves them.
   */
  seeded?: SeededBases;
  /** For the registry's own bases: a seed's seeded state made ahead, loaded instead of seeding (SeededBases). */
  builtSeeded?: (seed: number) => Snapshot | undefined;
}

/**
 * A live workspace and when it was last used. Its world (a copy-on-write view, its clock, what it keeps beside its
 * store) is made on first use: a docs visitor who never tries anything, or a CI job that has not started, holds a
 * few hundred bytes. Creations come in floods, and what each keeps alive is what every young-generation collection
 * during the flood copies while requests wait.
 */
export class Workspace {
  private made: World | undefined;
  lastUsedAt: number;

  constructor(
    readonly id: string,
    /** The token prefix (`ws_<id>.`): it routes, and grants nothing. */
    readonly tokenPrefix: string,
    /** Its names for the seeded demo tokens: the token prefix, then each token's own random secret. */
    readonly seedTokens: SeedTokens,
    /** The frozen seeded world its store is a view of. */
    private readonly base: World['store'],
    readonly createdAt: number,
    private readonly model: WorldModel,
  ) {
    this.lastUsedAt = createdAt;
  }

  /** Its world, made on first use. */
  get world(): World {
    return (this.made ??= {
      id: this.id,
      store: workspaceStore(this.base, this.seedTokens),
      clock: new Clock(),
      resources: new WorldResources(),
      tokenPrefix: this.tokenPrefix,
      seedTokens: this.seedTokens,
      ids: new IdSequence(),
      model: this.model,
    });
  }

  /** Releases what its world keeps beside its store, if it was ever made. */
  dispose(): void {
    this.made?.resources.dispose();
  }
}

/** Random bytes of a workspace id, and of each seeded token's secret (144 bits, above the 128 a secret needs). */
const ID_BYTES = 6;
const SECRET_BYTES = 18;

// A workspace id: random hex, after the replica's name when the server is one of several (`r1-3f9a1c0b7d2e`).
// The example workspace's fixed id is one too.
const WORKSPACE_ID = `(?:(?:[a-z0-9]{1,8}-)?[0-9a-f]{12}|${EXAMPLE_WORKSPACE})`;
const WORKSPACE_TOKEN = new RegExp(`^ws_(${WORKSPACE_ID})\\.`);

/**
 * The worlds the server serves and how a token finds its world: the default world, plus isolated workspaces
 * (each an in-memory copy-on-write view of the world seeded from the same seed, with its own clock and tokens
 * prefixed `ws_<id>.`). What is kept per world elsewhere learns of resets and deletions through its listeners.
 */
export class Worlds {
  /** When this server started serving, for the health answer. */
  readonly startedAt = new Date().toISOString();
  readonly idleTtlMs: number;
  /** The default world holds a loaded workspace bundle (--load). */
  readonly defaultLoaded: boolean;
  readonly maxWorkspaces: number;
  readonly heapBudgetPercent: number;
  /** The process's memory budget: what loads, uploads and exports reserve before they start (memory-reservations.ts). */
  readonly budget: MemoryBudget;
  private readonly workspaces = new Map<string, Workspace>();
  private readonly listeners: WorldsListener[] = [];
  private readonly now: () => number;
  private readonly idPrefix: string;
  /** The frozen seeded bases of this registry's workspaces and resets (see WorldsOptions.seeded). */
  readonly seeded: SeededBases;
  private readonly ownsSeeded: boolean;
  /** The example workspace is kept and was not deleted since the default world's last reset: named, it is there. */
  private exampleKept: boolean;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly defaultWorld: World,
    private readonly options: WorldsOptions = {},
  ) {
    this.idleTtlMs = options.idleTtlMs ?? 60 * 60 * 1000;
    this.defaultLoaded = options.defaultLoaded === true;
    this.maxWorkspaces = options.maxWorkspaces ?? DEFAULT_MAX_WORKSPACES;
    this.heapBudgetPercent = options.heapBudgetPercent ?? DEFAULT_HEAP_BUDGET_PERCENT;
    this.budget = new MemoryBudget(options.memory ?? processMemoryGauge(), this.heapBudgetPercent);
    this.now = options.now ?? Date.now;
    this.idPrefix = options.replicaId === undefined ? '' : `${options.replicaId}-`;
    this.ownsSeeded = options.seeded === undefined;
    this.seeded = options.seeded ?? new SeededBases(defaultWorld.model, options.builtSeeded);
    this.exampleKept = options.exampleWorkspace === true;
  }

  /** Adds a listener told of every reset and deletion from here on. */
  listen(listener: WorldsListener): void {
    this.listeners.push(listener);
  }

  /**
   * The world a prefixed secret names: an API token, or an authorization state of the consent flow (whose pages
   * carry no API token). No prefix: the default world; a prefix of a workspace that is gone: undefined. The prefix
   * is no proof, so the workspace is not marked used: the caller does that (markUsed) once the secret checked out.
   */
  worldOfSecret(secret: string): World | undefined {
    const id = WORKSPACE_TOKEN.exec(secret)?.[1];
    return id === undefined ? this.defaultWorld : this.live(id)?.world;
  }

  /** True when a secret's prefix names a workspace that is no longer live (deleted, or expired). */
  isGoneWorkspaceSecret(secret: string): boolean {
    const id = WORKSPACE_TOKEN.exec(secret)?.[1];
    return id !== undefined && this.live(id) === undefined;
  }

  /** Marks a world's workspace used now: a request proved it may act there (its token, or the admin's). */
  markUsed(world: World): void {
    const ws = this.live(world.id);
    if (ws) ws.lastUsedAt = this.now();
  }

  /** The name a world goes by in the journal, the coverage report and the control plane. */
  nameOf(world: World): string {
    return world === this.defaultWorld ? DEFAULT_WORKSPACE : world.id;
  }

  /** A live workspace by id (and marks it used); an idle one past its time is deleted here rather than served. */
  workspace(id: string): Workspace | undefined {
    const ws = this.live(id);
    if (ws) ws.lastUsedAt = this.now();
    return ws;
  }

  /** A world by the name the control plane's `{workspace}` path gives it: 'default' or a live workspace's id. */
  namedWorld(name: string): { id: string; world: World } | undefined {
    if (name === DEFAULT_WORKSPACE) return { id: DEFAULT_WORKSPACE, world: this.defaultWorld };
    const ws = this.live(name);
    // The workspace's world is made on first use: deleting one never makes it.
    return (
      ws && {
        id: ws.id,
        get world() {
          return ws.world;
        },
      }
    );
  }

  /**
   * A live workspace by id, without marking it used: for lookups that prove nothing (a token's prefix, an image
   * URL's `?workspace=`), which must not keep a workspace alive past its time. An idle one past it is deleted here.
   */
  live(id: string): Workspace | undefined {
    const ws = this.workspaces.get(id);
    if (ws && this.now() - ws.lastUsedAt >= this.idleTtlMs) this.forget([id]);
    else if (ws) return ws;
    return id === EXAMPLE_WORKSPACE && this.exampleKept ? this.add(this.build(EXAMPLE_WORKSPACE)) : undefined;
  }

  /**
   * The world a control-plane request names: 'default' or nothing is the default world; undefined for an unknown id.
   * The workspace is marked used; `find` does not (the admin looking at a workspace does not keep it alive).
   */
  resolve(name: string | undefined): World | undefined {
    const world = this.find(name);
    if (world) this.markUsed(world);
    return world;
  }

  /** The world a name names, as resolve, without marking it used. */
  find(name: string | undefined): World | undefined {
    if (name === undefined || name === DEFAULT_WORKSPACE) return this.defaultWorld;
    return this.live(name)?.world;
  }

  /** True for 'default' and a live workspace's id, without marking the workspace used. */
  isLive(name: string): boolean {
    return name === DEFAULT_WORKSPACE || this.workspaces.has(name) || (name === EXAMPLE_WORKSPACE && this.exampleKept);
  }

  /**
   * Creates an isolated world: a copy-on-write view of the seeded base of the default world's seed. Throws
   * WorkspaceRefused at the workspace limit and when memory is past its budget (existing worlds keep working).
   */
  createWorkspace(): Workspace {
    this.admitCreation();
    return this.add(this.build());
  }

  /**
   * Creates a workspace whose world `prepare` fills over turns of the event loop (a bundle's load), refused as
   * createWorkspace refuses one. Nobody sees the world until `prepare` has resolved: if it rejects, or the workspace
   * limit was reached by others meanwhile, nothing was created.
   */
  async createWorkspaceFrom(prepare: (world: World) => Promise<void>): Promise<Workspace> {
    this.admitCreation();
    const ws = this.build();
    try {
      await prepare(ws.world);
      this.refuseAtLimit();
    } catch (error) {
      ws.dispose();
      throw error;
    }
    return this.add(ws);
  }

  /**
   * Refuses (WorkspaceRefused) a creation the registry could not take now: at the workspace limit, or with memory
   * past its budget. Authorization asks it before a creation's body is read; the creation asks again when the
   * workspace is made (another creation may have taken the room meanwhile).
   */
  admitCreation(): void {
    this.refuseAtLimit();
    // What the process holds now, reservations apart: a bundle's load reserved its bytes before its body was read,
    // and what it parsed is in this reading already (counting both would count the load twice).
    if (memoryShortage(this.budget.reading(), this.heapBudgetPercent) !== undefined) {
      throw new WorkspaceRefused('memory', 'The sandbox is short of memory for another workspace; delete one or retry once idle ones have expired.', 60);
    }
  }

  /** Refuses (WorkspaceRefused) once the registry keeps as many workspaces as it may. */
  private refuseAtLimit(): void {
    // Sweeping scans every workspace: done here only when an expired one could make room.
    if (this.workspaceCount >= this.maxWorkspaces) this.sweep();
    if (this.workspaceCount >= this.maxWorkspaces) {
      throw new WorkspaceRefused('limit', `The sandbox already keeps ${this.maxWorkspaces} workspaces; delete one or wait for an idle one to expire.`, 60);
    }
  }

  /** A workspace viewing the seeded base, its tokens drawn; `fixedId` (the example's) instead of a drawn id. */
  private build(fixedId?: string): Workspace {
    const { seed } = this.defaultWorld.store;
    // The seeded base is built by the first creation (it runs every seeder), not by the workspace's first request.
    const base = this.seeded.of(seed);
    const seeded = base.collections.tokens.all();
    // One draw for all: 48 bits of id, then 144 bits of secret for each seeded token (a draw is a call into OpenSSL).
    let random: Buffer;
    let id: string;
    do id = fixedId ?? this.idPrefix + (random = randomBytes(ID_BYTES + SECRET_BYTES * seeded.length)).toString('hex', 0, ID_BYTES);
    while (fixedId === undefined && this.workspaces.has(id));
    random ??= randomBytes(ID_BYTES + SECRET_BYTES * seeded.length);
    const tokenPrefix = `ws_${id}.`;
    // The id before the secret only routes (nginx, consent states, image URLs) and grants nothing; each token's
    // secret is drawn on its own, so no token of a workspace says anything about another (member is not owner).
    const seedTokens: Record<string, string> = {};
    seeded.forEach((token, i) => {
      const at = ID_BYTES + SECRET_BYTES * i;
      seedTokens[token.id] = tokenPrefix + random.toString('base64url', at, at + SECRET_BYTES);
    });
    return new Workspace(id, tokenPrefix, seedTokens, base, this.now(), this.defaultWorld.model);
  }

  private add(ws: Workspace): Workspace {
    this.workspaces.set(ws.id, ws);
    this.startSweeping();
    return ws;
  }

  /** Deletes a workspace with its store, clock and resources (listeners drop the rest); false when there was none. */
  deleteWorkspace(id: string): boolean {
    if (!this.workspace(id)) return false;
    if (id === EXAMPLE_WORKSPACE) this.exampleKept = false;
    this.forget([id]);
    return true;
  }

  /** How many workspaces clients created are live (the example workspace is the sandbox's own). */
  get workspaceCount(): number {
    return this.workspaces.size - (this.workspaces.has(EXAMPLE_WORKSPACE) ? 1 : 0);
  }

  /** Back to the seeded state: store, clock and resources of this one world (listeners drop the rest). */
  async reset(world: World): Promise<void> {
    await resetWorld(world, this.seeded);
    const name = this.nameOf(world);
    // The sandbox as it started, for every example to run again: the example workspace too, if it was deleted.
    if (name === DEFAULT_WORKSPACE && this.options.exampleWorkspace === true) this.exampleKept = true;
    for (const listener of this.listeners) listener.onReset?.(name);
  }

  /** Deletes every workspace idle past its time. */
  sweep(): void {
    const now = this.now();
    const expired: string[] = [];
    for (const [id, ws] of this.workspaces) if (now - ws.lastUsedAt >= this.idleTtlMs) expired.push(id);
    if (expired.length > 0) this.forget(expired);
  }

  /** Deletes every workspace, lets its own seeded bases go, flushes and releases the default world's persistence. */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.forget([...this.workspaces.keys()]);
    if (this.ownsSeeded) this.seeded.clear();
    await this.defaultWorld.store.persistence.close();
  }

  private forget(ids: readonly string[]): void {
    for (const id of ids) {
      this.workspaces.get(id)?.dispose();
      this.workspaces.delete(id);
    }
    for (const listener of this.listeners) listener.onForget?.(ids);
    if (this.workspaces.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  // Expiry is also checked on every lookup; the timer only frees the memory of workspaces nobody asks for again.
  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.min(this.idleTtlMs, 60_000)));
    this.sweeper.unref();
  }
}

/** The Worlds options a configuration asks for. */
export function worldsOptions(config: {
  workspaceIdleTtlMs: number;
  maxWorkspaces: number;
  heapBudgetPercent: number;
  replicaId?: string;
  hosted: boolean;
}): WorldsOptions {
  return {
    exampleWorkspace: !config.hosted,
    replicaId: config.replicaId,
    idleTtlMs: config.workspaceIdleTtlMs,
    maxWorkspaces: config.maxWorkspaces,
    heapBudgetPercent: config.heapBudgetPercent,
  };
}
