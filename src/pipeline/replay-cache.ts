// The replay step of the pipeline (src/pipeline/handle-request.ts): a read whose answer the adapter marked replayable
// (the handler wrote nothing and read neither the clock nor anything kept beside the store) and the response check
// let through is kept, serialized, while the world's version (store version and clock offset) stays where it was.
// An identical read later is answered with those bytes instead of running the handler, serializing and checking the
// answer again; every step before the handler runs as for any request (token, records, input, limits, headers,
// journal), so a kept answer never skips a check.
import type { Request } from 'express';
import type { Reply } from '../http/reply.js';
import type { World } from '../world.js';
import type { RequestState } from './request-state.js';
import { SharedBodies } from './shared-bodies.js';

/** How the kept answers have been used: tests read it to tell a replayed answer from a computed one. */
export interface ReplayStats {
  hits: number;
  misses: number;
  stored: number;
  entries: number;
  /** Body bytes of all answers kept, each counted (the bound). */
  bytes: number;
  /** Distinct bodies kept: identical answers (the same read in many workspaces) share one. */
  bodies: number;
}

interface Entry {
  world: World;
  store: World['store'];
  version: number;
  clockOffset: number;
  /** The handler's reply, for the journal (the body as an object) and its own headers. */
  reply: Reply;
  /** The reply's body as JSON text, as res.json would send it. */
  json: Buffer;
}

/** At most this many answers (the oldest is dropped first), and this many body bytes in all. */
const MAX_ENTRIES = 2000;
const MAX_BYTES = 32 * 1024 * 1024;

/** The answers kept for replay, keyed by what an identical read sends. */
export class ReplayCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly bodies = new SharedBodies();
  readonly stats: ReplayStats = { hits: 0, misses: 0, stored: 0, entries: 0, bytes: 0, bodies: 0 };

  /**
   * The kept answer of this read, when one is kept for the world's current version: a GET without Prefer knobs,
   * from the same user, to the same URL through the same Host (the links in an answer are built from it).
   */
  find(req: Request, state: RequestState, world: World): Reply | undefined {
    const key = keyOf(req, state, world);
    if (key === undefined) return undefined;
    const entry = this.entries.get(key);
    if (entry && entry.world === world && entry.store === world.store && entry.version === world.store.version && entry.clockOffset === world.clock.offset) {
      this.stats.hits++;
      return { ...entry.reply, json: entry.json };
    }
    if (entry) this.drop(key, entry);
    this.stats.misses++;
    return undefined;
  }

  /** Keeps a reply just sent, when the adapter marked it replayable and the response check passed it. */
  keep(req: Request, state: RequestState, world: World, reply: Reply): void {
    const replayable = state.replayable;
    if (!replayable || state.responseCheck !== 'passed' || reply.status !== 200 || reply.type !== undefined || reply.pieces || reply.json) return;
    const key = keyOf(req, state, world);
    if (key === undefined || world.store.version !== replayable.version || world.clock.offset !== replayable.clockOffset) return;
    const text = JSON.stringify(reply.body);
    if (text === undefined || Buffer.byteLength(text) > MAX_BYTES / 8) return;
    const json = this.bodies.hold(Buffer.from(text));
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { world, store: world.store, version: replayable.version, clockOffset: replayable.clockOffset, reply, json });
    this.bytes += json.length;
    this.stats.stored++;
    // Oldest first: Map keeps insertion order.
    for (const [k, e] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.drop(k, e);
    }
    this.count();
  }

  /** Forgets every answer (tests; a world swapped under the app). */
  clear(): void {
    this.entries.clear();
    this.bodies.clear();
    this.bytes = 0;
    this.count();
  }

  private drop(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bodies.release(entry.json);
    this.bytes -= entry.json.length;
    this.count();
  }

  private count(): void {
    this.stats.entries = this.entries.size;
    this.stats.bytes = this.bytes;
    this.stats.bodies = this.bodies.size;
  }
}

/**
 * What an identical read sends, in the same world: the user, the Host and forwarded headers (behind a trusted proxy they change the
 * links), Accept, and the URL as sent. Undefined for a request that is no plain read: not a GET, or with knobs.
 */
function keyOf(req: Request, state: RequestState, world: World): string | undefined {
  if (req.method !== 'GET' || state.prefer !== undefined || req.headers.prefer !== undefined || !state.caller) return undefined;
  const h = req.headers;
  return `${world.id}\n${state.operation!.id}\n${state.caller.user.id}\n${h.host ?? ''}\n${h['x-forwarded-proto'] ?? ''}\n${h['x-forwarded-host'] ?? ''}\n${h.accept ?? ''}\n${req.originalUrl}`;
}
