// The replay step of the pipeline (src/pipeline/handle-request.ts): a read whose answer the adapter marked replayable
// (the handler wrote nothing and read neither the clock nor anything kept beside the store) and the response check
// let through is kept, serialized, while none of the collections it read changed and the world's clock offset stays
// where it was.
// An identical read later is answered with those bytes instead of running the handler, serializing and checking the
// answer again. The key holds everything the validator reads of such a read (operation, URL with its query, the
// header parameters the operation declares; it takes no body), so the validator's verdict on it is the kept one's:
// it passed. Token, authorization, limits and the records (404/403) still run for every request, in their order,
// and the tolerant reader's report and the checked query are the kept ones, so the journal and headers are the same.
import type { Request } from 'express';
import type { Reply } from '../http/reply.js';
import type { IgnoredFields } from '../observe/ignored-fields.js';
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import type { World } from '../world.js';
import type { StoreStamp } from '../store/store.js';
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
  /** Where the store stood when the answer was computed, and the collections it was made from (undefined: all). */
  stamp: StoreStamp;
  reads: readonly string[] | undefined;
  clockOffset: number;
  /** The reply's body as JSON text, as res.json would send it. */
  json: Buffer;
  /** The query as the validator left it (coerced, without ignored fields): what the records read. */
  query: unknown;
  /** What the tolerant reader ignored: named again in the answer's header and the journal. */
  ignored: IgnoredFields | undefined;
  /** What find answers for it: one object for every replay, as nothing a replay does changes it. */
  answer: KeptAnswer;
}

/**
 * A kept answer, found for a request: the reply to send (its status, headers and body as the JSON bytes sent, the
 * body object let go: an answer is kept until a write makes it stale, long enough for the garbage collector to move
 * an object graph to the old generation) and the checked input it was answered for.
 */
export interface KeptAnswer {
  reply: Reply & { json: Buffer };
  query: unknown;
  /** The query as sent, which the journal records: the key holds the URL, so every replay was sent the same. */
  receivedQuery: unknown;
  ignored: IgnoredFields | undefined;
}

/** At most this many answers (the oldest is dropped first), and this many body bytes in all. */
const MAX_ENTRIES = 2000;
const MAX_BYTES = 32 * 1024 * 1024;

/** The answers kept for replay, keyed by what an identical read sends. */
export class ReplayCache {
  private readonly entries = new Map<string, Entry>();
  /** Per operation, the header parameters its contract declares (lower case): the validator checks them, so they are part of the key. */
  private readonly checkedHeaders: ReadonlyMap<string, readonly string[]>;
  private bytes = 0;
  private readonly bodies = new SharedBodies();
  readonly stats: ReplayStats = { hits: 0, misses: 0, stored: 0, entries: 0, bytes: 0, bodies: 0 };

  constructor(doc: ContractDocument) {
    this.checkedHeaders = headerParameters(doc);
  }

  /**
   * The kept answer of this read, when one is kept for the world's current version: a GET without Prefer knobs,
   * from the same user, to the same URL through the same Host (the links in an answer are built from it).
   */
  find(req: Request, state: RequestState, world: World): KeptAnswer | undefined {
    const key = this.keyOf(req, state, world);
    if (key === undefined) return undefined;
    const entry = this.entries.get(key);
    if (entry && entry.world === world && entry.store === world.store && entry.clockOffset === world.clock.offset && current(entry, world.store)) {
      this.stats.hits++;
      return entry.answer;
    }
    if (entry) this.drop(key, entry);
    this.stats.misses++;
    return undefined;
  }

  /** Whether this request is a read whose answer may be kept (a GET without knobs, by a caller). */
  keyable(req: Request, state: RequestState): boolean {
    return req.method === 'GET' && state.prefer === undefined && req.headers.prefer === undefined && state.caller !== undefined;
  }

  /** Keeps a reply just sent, when the adapter marked it replayable and the response check passed it. */
  keep(req: Request, state: RequestState, world: World, reply: Reply): void {
    const replayable = state.replayable;
    if (!replayable || state.responseCheck !== 'passed' || reply.status !== 200 || reply.type !== undefined || reply.pieces || reply.json) return;
    const key = this.keyOf(req, state, world);
    if (key === undefined || world.store.version !== replayable.stamp.version || world.clock.offset !== replayable.clockOffset) return;
    const sent = state.sentJson;
    const bytes = sent !== undefined && sent.body === reply.body ? sent.bytes : serialized(reply.body);
    if (bytes === undefined || bytes.length > MAX_BYTES / 8) return;
    const json = this.bodies.hold(bytes);
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    const entry = {
      world,
      store: world.store,
      stamp: replayable.stamp,
      reads: replayable.reads,
      clockOffset: replayable.clockOffset,
      json,
      query: req.query,
      ignored: state.ignored,
      answer: Object.freeze({
        reply: Object.freeze({ ...reply, body: undefined, json }),
        query: req.query,
        receivedQuery: state.receivedQuery,
        ignored: state.ignored,
      }),
    };
    this.entries.set(key, entry);
    this.bytes += json.length;
    this.stats.stored++;
    // Oldest first: Map keeps insertion order.
    for (const [k, e] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.drop(k, e);
    }
    this.count();
  }

  /**
   * What an identical read sends, in the same world: the user, the Host and forwarded headers (behind a trusted proxy
   * they change the links), Accept, the header parameters the operation declares, and the URL as sent. Undefined for
   * a request that is no plain read: not a GET, or with knobs.
   */
  private keyOf(req: Request, state: RequestState, world: World): string | undefined {
    if (!this.keyable(req, state)) return undefined;
    const h = req.headers;
    const operationId = state.operation!.id;
    let key = `${world.id}\n${operationId}\n${state.caller!.user.id}\n${h.host ?? ''}\n${h['x-forwarded-proto'] ?? ''}\n${h['x-forwarded-host'] ?? ''}\n${h.accept ?? ''}\n${req.originalUrl}`;
    const checked = this.checkedHeaders.get(operationId);
    if (checked !== undefined) for (const name of checked) key += `\n${name}: ${JSON.stringify(h[name] ?? null)}`;
    return key;
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

/** A body as JSON bytes, as res.json sends it (undefined: nothing JSON can say). */
function serialized(body: unknown): Buffer | undefined {
  const text = JSON.stringify(body);
  return text === undefined ? undefined : Buffer.from(text);
}

/** Whether a kept answer is still right: no collection it was made from changed since (any change, when it names none). */
function current(entry: Entry, store: World['store']): boolean {
  return entry.reads === undefined ? store.version === entry.stamp.version : store.unchangedSince(entry.stamp, entry.reads);
}

/** Per operation, the header parameters it declares (its path's and its own), lower case: what the validator reads of the headers. */
function headerParameters(doc: ContractDocument): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const op of listOperations(doc)) {
    const item = doc.paths[op.path] as { parameters?: unknown[] } | undefined;
    const names = [...(item?.parameters ?? []), ...((op.operation as { parameters?: unknown[] }).parameters ?? [])]
      .map((p) => deref(doc, p))
      .filter((p): p is Record<string, unknown> => isObj(p) && (p.in === 'header' || p.in === 'cookie') && typeof p.name === 'string')
      .map((p) => (p.in === 'cookie' ? 'cookie' : (p.name as string).toLowerCase()));
    if (names.length > 0) out.set(op.operationId, [...new Set(names)]);
  }
  return out;
}
