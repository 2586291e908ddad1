import { randomBytes } from 'node:crypto';
import type { UserRecord } from './areas/users/records.js';
import { Clock } from './clock.js';
import { DEFAULT_MAX_WORKSPACES } from './config.js';
import { FixedWindowLimit } from './fixed-window-limit.js';
import { listOperations, loadContract } from './contract/load-contract.js';
import { heapOverBudget, v8Heap, type HeapGauge } from './heap-budget.js';
import { httpError, tooManyRequests } from './http/errors.js';
import { CoverageTracker } from './sandbox/coverage.js';
import { DEFAULT_WORKSPACE, RequestJournal } from './sandbox/request-journal.js';
import { resetWorld, workspaceStore, type World } from './world.js';
import { WorldResources } from './world-resources.js';

/** Who a bearer token belongs to, and in which world. */
export interface Authenticated {
  world: World;
  user: UserRecord;
}

/** Limits of the workspaces a server keeps. */
export interface WorldsOptions {
  /** A workspace unused for this long is deleted. Default one hour. */
  idleTtlMs?: number;
  /** At most this many workspaces at once. Default DEFAULT_MAX_WORKSPACES. */
  maxWorkspaces?: number;
  /** Requests the journal keeps. Default 1000. */
  journalSize?: number;
  /** Creating a workspace answers 503 once the heap is past this percentage of its limit. Default 85. */
  heapBudgetPercent?: number;
  /** Reads the heap (tests inject one). */
  heap?: HeapGauge;
  /** Wall clock for idleness and the creation limit (tests inject one). */
  now?: () => number;
  /** This replica's name (REPLICA_ID): the ids of the workspaces created here start with `<replicaId>-`. */
  replicaId?: string;
  /** Workspaces one client address may create per minute; unlimited when absent. */
  createPerMinute?: number;
  /** Hosted mode: the admin token, the only one that may act on any world. */
  hosted?: { adminToken: string };
}

/** A live workspace and when it was last used. */
export interface Workspace {
  world: World;
  createdAt: number;
  lastUsedAt: number;
}

// A workspace id: random hex, after the replica's name when the server is one of several (`r1-3f9a1c0b7d2e`).
const WORKSPACE_ID = '(?:[a-z0-9]{1,8}-)?[0-9a-f]{12}';
const WORKSPACE_TOKEN = new RegExp(`^ws_(${WORKSPACE_ID})\\.`);
const WORKSPACE_NAME = new RegExp(`^${WORKSPACE_ID}$`);

/** True for a name shaped like the ids createWorkspace hands out (or `default`), whether or not it is live. */
export const isWorkspaceName = (name: string): boolean => name === DEFAULT_WORKSPACE || WORKSPACE_NAME.test(name);

/** True for an operation the coverage report is about: the versioned API, not the control plane itself. */

/**
 * The worlds the server serves and how a token finds its world: the default world, plus isolated workspaces
 * (each an in-memory copy-on-write view of the world seeded from the same seed, with its own clock and tokens
 * prefixed `ws_<id>.`). It also holds what the control plane reads across worlds: the request journal and each
 * world's coverage.
 */
export class Worlds {
  /** When this server started serving, for the health answer. */
  readonly startedAt = new Date().toISOString();
  /** Every request of every world, newest first, bounded; filtered by workspace name. */
  readonly journal: RequestJournal;
  readonly idleTtlMs: number;
  readonly maxWorkspaces: number;
  readonly heapBudgetPercent: number;
  /** Hosted mode's settings; undefined in local mode. */
  readonly hosted: { adminToken: string } | undefined;
  /** Creations per client address per minute, when limited. */
  readonly creationLimit: FixedWindowLimit | undefined;
  private readonly heap: HeapGauge;
  private readonly workspaces = new Map<string, Workspace>();
  private readonly coverage = new Map<string, CoverageTracker>();
  private readonly now: () => number;
  private readonly idPrefix: string;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly main: World,
    options: WorldsOptions = {},
  ) {
    this.idleTtlMs = options.idleTtlMs ?? 60 * 60 * 1000;
    this.maxWorkspaces = options.maxWorkspaces ?? DEFAULT_MAX_WORKSPACES;
    this.heapBudgetPercent = options.heapBudgetPercent ?? 85;
    this.heap = options.heap ?? v8Heap;
    this.journal = new RequestJournal({ capacity: options.journalSize ?? 1000 });
    this.now = options.now ?? Date.now;
    this.idPrefix = options.replicaId === undefined ? '' : `${options.replicaId}-`;
    this.hosted = options.hosted;
    this.creationLimit = options.createPerMinute === undefined ? undefined : new FixedWindowLimit(options.createPerMinute, 60_000, this.now);
  }

  /** The world and user of a bearer token, or undefined for a token no world knows. */
  authenticate(token: string): Authenticated | undefined {
    const world = this.worldOfSecret(token);
    if (!world) return undefined;
    const record = world.store.collections.tokens.get(token);
    const user = record && world.store.collections.users.get(record.user_id);
    return user ? { world, user } : undefined;
  }

  /**
   * The world a prefixed secret names: an API token, or an authorization state of the consent flow (whose pages
   * carry no API token). No prefix: the default world; a prefix of a workspace that is gone: undefined.
   */
  worldOfSecret(secret: string): World | undefined {
    const id = WORKSPACE_TOKEN.exec(secret)?.[1];
    return id === undefined ? this.main : this.workspace(id)?.world;
  }

  /** The workspace a token names by its prefix (whether or not the token itself is valid), if it is live. */
  workspaceOfToken(token: string): string | undefined {
    const id = WORKSPACE_TOKEN.exec(token)?.[1];
    return id !== undefined && this.workspaces.has(id) ? id : undefined;
  }

  /** The name a world goes by in the journal, the coverage report and the control plane. */
  nameOf(world: World): string {
    return world === this.main ? DEFAULT_WORKSPACE : world.id;
  }

  /** A live workspace by id (and marks it used); an idle one past its time is deleted here rather than served. */
  workspace(id: string): Workspace | undefined {
    const ws = this.workspaces.get(id);
    if (!ws) return undefined;
    const now = this.now();
    if (now - ws.lastUsedAt >= this.idleTtlMs) {
      this.forget(id);
      return undefined;
    }
    ws.lastUsedAt = now;
    return ws;
  }

  /** The world a control-plane request names: 'default' or nothing is the default world; undefined for an unknown id. */
  resolve(name: string | undefined): World | undefined {
    if (name === undefined || name === DEFAULT_WORKSPACE) return this.main;
    return this.workspace(name)?.world;
  }

  /**
   * Creates an isolated world: a copy-on-write view of the seeded base of the default world's seed. Refused with
   * 429 at the workspace limit and with 503 when the heap is past its budget (existing worlds keep working).
   */
  createWorkspace(): Workspace {
    // Sweeping scans every workspace: done here only when an expired one could make room.
    if (this.workspaces.size >= this.maxWorkspaces) this.sweep();
    if (this.workspaces.size >= this.maxWorkspaces) {
      tooManyRequests(`The sandbox already keeps ${this.maxWorkspaces} workspaces; delete one or wait for an idle one to expire.`, 60);
    }
    if (heapOverBudget(this.heap, this.heapBudgetPercent)) {
      httpError(503, 'The sandbox is short of memory for another workspace; delete one or retry once idle ones have expired.', undefined, {
        'Retry-After': '60',
      });
    }
    // One draw for both: 48 bits of id, then 144 bits of secret (a draw is a call into OpenSSL).
    let random: Buffer;
    let id: string;
    do id = this.idPrefix + (random = randomBytes(24)).toString('hex', 0, 6);
    while (this.workspaces.has(id));
    const tokenPrefix = `ws_${id}.`;
    // 144 random bits: the id before them only routes (nginx, consent states, image URLs) and grants nothing.
    const seedTokenPrefix = `${tokenPrefix}${random.subarray(6).toString('base64url')}.`;
    const store = workspaceStore(this.main.store.seed, seedTokenPrefix);
    const now = this.now();
    const ws: Workspace = { world: { id, store, clock: new Clock(), resources: new WorldResources(), tokenPrefix, seedTokenPrefix }, createdAt: now, lastUsedAt: now };
    this.workspaces.set(id, ws);
    this.startSweeping();
    return ws;
  }

  /** Deletes a workspace with its store, clock, coverage and journal entries; false when there was none. */
  deleteWorkspace(id: string): boolean {
    if (!this.workspace(id)) return false;
    this.forget(id);
    return true;
  }

  /** How many workspaces are live. */
  get workspaceCount(): number {
    return this.workspaces.size;
  }

  /** Back to the seeded state: store, clock, coverage and journal entries of this one world. */
  async reset(world: World): Promise<void> {
    await resetWorld(world);
    const name = this.nameOf(world);
    this.coverage.get(name)?.reset();
    this.journal.clear(name);
  }

  /** The coverage of a world by name (created on first use); undefined for a workspace that is gone. */
  coverageOf(name: string): CoverageTracker | undefined {
    let tracker = this.coverage.get(name);
    if (!tracker && (name === DEFAULT_WORKSPACE || this.workspaces.has(name))) {
      // Coverage is about the versioned API a client tests, not the harness's own control plane.
      tracker = new CoverageTracker(listOperations(loadContract().doc).filter((op) => !op.tags.includes('Sandbox')));
      this.coverage.set(name, tracker);
    }
    return tracker;
  }

  /** Deletes every workspace idle past its time. */
  sweep(): void {
    const now = this.now();
    for (const [id, ws] of this.workspaces) if (now - ws.lastUsedAt >= this.idleTtlMs) this.forget(id);
  }

  /** Flushes and releases every world's persistence. */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const id of [...this.workspaces.keys()]) this.forget(id);
    await this.main.store.persistence.close();
  }

  private forget(id: string): void {
    const ws = this.workspaces.get(id);
    if (ws) ws.world.resources.dispose();
    this.workspaces.delete(id);
    this.coverage.delete(id);
    this.journal.clear(id);
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

/** The `?workspace=` a control-plane request names (operations without a token act on that world, or the default one). */
export function controlPlaneWorkspace(req: { query: unknown }): string | undefined {
  const value = (req.query as Record<string, unknown> | undefined)?.workspace;
  return typeof value === 'string' ? value : undefined;
}

/** The Worlds options a configuration asks for. */
export function worldsOptions(config: {
  workspaceIdleTtlMs: number;
  maxWorkspaces: number;
  heapBudgetPercent: number;
  journalSize: number;
  replicaId?: string;
  workspaceCreatePerMinute?: number;
  hosted?: boolean;
  adminToken?: string;
}): WorldsOptions {
  if (config.hosted && !config.adminToken) throw new Error('Hosted mode needs an admin token (SANDBOX_ADMIN_TOKEN)');
  return {
    replicaId: config.replicaId,
    ...(config.workspaceCreatePerMinute !== undefined && { createPerMinute: config.workspaceCreatePerMinute }),
    ...(config.hosted && config.adminToken !== undefined && { hosted: { adminToken: config.adminToken } }),
    idleTtlMs: config.workspaceIdleTtlMs,
    maxWorkspaces: config.maxWorkspaces,
    heapBudgetPercent: config.heapBudgetPercent,
    journalSize: config.journalSize,
  };
}
