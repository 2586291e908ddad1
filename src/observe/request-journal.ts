// A contract test that fails wants to know what the client actually sent and what it got back. The journal keeps
// the most recent requests in memory, per workspace: each workspace (and the default world) has its own bounded
// ring, so one tenant's flood never evicts another's entries. What it keeps is redacted and capped when recorded:
// a 1 MiB body costs an entry no more than the cap, and a secret is never held, so a read can never leak one.
// An entry is kept as its JSON text, in a byte buffer of its ring, outside the JavaScript heap: a ring holds its
// entries for about a thousand requests, long enough for the garbage collector to move each one into the old
// generation, where thousands of copied bodies a second (objects, each traced) made the young collections copy
// megabytes each, grew the young generation and brought a full mark-compact every few seconds. Bytes are neither
// traced nor copied, and a read parses only the entries it answers. A replayed answer's body, the same text on every
// replay, is the exception: each of its entries names the one redacted text the journal keeps of it (a string,
// outside the ring), instead of writing its bytes again on every request.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { JOURNAL_DEFAULTS } from '../config.js';
import { decodedOrAsWritten } from '../percent-decode.js';
import { DEFAULT_WORKSPACE } from '../worlds.js';
import type { components } from '../contract/document/generated.js';
import { IsoTimes } from '../world.js';
import { capBody, clipText, REDACTED, redactHeaders, redactQuery, SecretNames } from './redact.js';

/** What the app hands over after a response was sent; raw values, the journal redacts and caps them. */
export interface JournalRecordInput {
  /** The request's id (its X-Request-Id); the journal makes one when the request had none. */
  id?: string;
  workspace?: string;
  method: string;
  path: string;
  operationId?: string | null;
  status: number;
  durationMs: number;
  query?: Record<string, unknown>;
  headers?: Record<string, string | string[] | number | undefined>;
  requestBody?: unknown;
  responseBody?: unknown;
  /**
   * The response body as JSON bytes held beyond this request and handed again (a replayed answer's kept bytes),
   * instead of `responseBody`: read and redacted once per bytes, and its entries name that one text.
   */
  responseJson?: Buffer;
  /** What the tolerant reader ignored (`query._`, `body.id`). */
  ignored?: string[];
  /** Why it was answered as it was (src/pipeline/request-trail.ts); kept redacted and counted like the bodies. */
  trail?: RequestTrail;
  /** When the request arrived; defaults to the journal's clock. */
  at?: Date;
  /**
   * The query is an object held beyond this request and handed again (a replayed answer's): the journal keeps its
   * redacted text by object instead of redacting it again. Only such objects: text kept by an object that dies with
   * its request (in a WeakMap) lives on through the young collections, to a full one.
   */
  kept?: boolean;
  /**
   * Set for an entry that came with a loaded workspace bundle (shown `loaded: true`): which of its bodies the
   * exporting journal had already cut to its cap.
   */
  loaded?: { requestTruncated: boolean; responseTruncated: boolean };
}

/** Filters of GET /_sandbox/requests; all optional, combined with AND. */
export interface JournalFilter {
  method?: string;
  /** Exact path, or a prefix when it ends with '*' (e.g. '/2024-09/products*'). */
  path?: string;
  operationId?: string;
  /** An exact status (404) or a class ('4xx'). */
  status?: number | string;
  /** Only this workspace's ring; every ring's entries, merged newest first, without it. */
  workspace?: string;
  /** At most this many entries (newest first). */
  limit?: number;
  /** Only entries recorded after the newest entry with this id (all of them when none has it). */
  after?: string;
  /** Only the entry with this id. */
  id?: string;
}

/** Construction options; the defaults suit a sandbox process. */
export interface RequestJournalOptions {
  /** How many entries each workspace's ring keeps; the oldest is dropped first. */
  capacity?: number;
  maxBodyBytes?: number;
  maxWorkspaceBytes?: number;
  maxTotalBytes?: number;
  /** False for a workspace that is gone: a request finishing after its deletion makes it no new ring. */
  accepts?: (workspace: string) => boolean;
  now?: () => Date;
  newId?: () => string;
}

function statusMatcher(status: number | string): (s: number) => boolean {
  if (typeof status === 'number') return (s) => s === status;
  const cls = /^([1-5])xx$/i.exec(status.trim());
  if (cls) {
    const hundred = Number(cls[1]);
    return (s) => Math.floor(s / 100) === hundred;
  }
  const exact = Number(status);
  return (s) => s === exact;
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`journal ${name} must be a positive integer, got ${value}`);
  return value;
}

/** Whether an object has no enumerable keys (as `for...in` sees them, the way the redacting walk copies). */
function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

/** What `memo` holds for `key`, made by `make` the first time. */
function remembered<K extends object, V>(memo: WeakMap<K, V>, key: K, make: () => V): V {
  let value = memo.get(key);
  if (value === undefined) memo.set(key, (value = make()));
  return value;
}

/** A redacted part of an entry, as the JSON text the entry is written with. */
interface KeptText {
  json: string;
  truncated: boolean;
}

/** A kept body's redacted text, which its entries name instead of holding it in their ring: and its UTF-8 bytes. */
interface SharedText extends KeptText {
  bytes: number;
}

/** The rings of every workspace: recorded into by workspace, listed per workspace or merged, dropped with it. */
export class RequestJournal {
  readonly capacity: number;
  readonly maxBodyBytes: number;
  readonly maxWorkspaceBytes: number;
  readonly maxTotalBytes: number;
  private readonly rings = new Map<string, JournalRing>();
  private totalBytes = 0;
  private seq = 0;
  private readonly accepts: (workspace: string) => boolean;
  private readonly now: () => Date;
  private readonly newId: () => string;
  // A replayed answer hands the journal the same body bytes on every hit: they are redacted once, not per entry.
  private readonly bodies = new WeakMap<Buffer, SharedText>();
  /** The verdicts on the names it redacts on every request (headers, body fields), and its arrival times' text. */
  private readonly names = new SecretNames();
  private readonly times = new IsoTimes();
  /** The redacted kept queries recorded, as JSON, by query: a replayed answer hands the same one. */
  private readonly queries = new WeakMap<object, string>();
  /** The kept copies of the shared trails recorded, as JSON, by trail. */
  private readonly trails = new WeakMap<RequestTrail, string>();
  /** The key of the versions this journal hands out (version()): made per process, so a version tells nothing. */
  private readonly versionKey = randomBytes(32);

  constructor(options: RequestJournalOptions = {}) {
    this.capacity = positive('capacity', options.capacity ?? JOURNAL_DEFAULTS.capacity);
    this.maxBodyBytes = positive('body bytes', options.maxBodyBytes ?? JOURNAL_DEFAULTS.maxBodyBytes);
    this.maxWorkspaceBytes = positive('workspace bytes', options.maxWorkspaceBytes ?? JOURNAL_DEFAULTS.maxWorkspaceBytes);
    this.maxTotalBytes = positive('total bytes', options.maxTotalBytes ?? JOURNAL_DEFAULTS.maxTotalBytes);
    this.accepts = options.accepts ?? (() => true);
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
  }

  /** Records one request, redacted and capped now; nothing of the raw input is kept. */
  record(input: JournalRecordInput): void {
    const workspace = input.workspace ?? DEFAULT_WORKSPACE;
    if (!this.accepts(workspace)) return;
    const kept = input.kept === true;
    const requestBody = input.requestBody === undefined ? undefined : this.keptBody(input.requestBody);
    // A kept body's text is named by the entry, not written in it: the entry's JSON says null in its place.
    const shared = input.responseJson === undefined ? undefined : this.sharedBody(input.responseJson);
    const responseBody = shared ?? (input.responseBody === undefined ? undefined : this.keptBody(input.responseBody));
    const id = input.id ?? this.newId();
    const method = input.method.toUpperCase();
    const operationId = input.operationId ?? null;
    // The contract's SandboxRequest, its fields in the order a listing shows them.
    const json =
      `{"id":${JSON.stringify(id)},"at":${JSON.stringify(this.times.of(input.at ?? this.now()))},"workspace":${JSON.stringify(workspace)}` +
      `,"method":${JSON.stringify(method)},"path":${JSON.stringify(input.path)},"operation_id":${JSON.stringify(operationId)}` +
      `,"status":${JSON.stringify(input.status)},"duration_ms":${JSON.stringify(Math.max(0, Math.round(input.durationMs * 100) / 100))}` +
      `,"request":{"query":${this.redactedQuery(input.query, kept)},"headers":${JSON.stringify(redactHeaders(input.headers ?? {}, this.names))}` +
      `,"body":${requestBody?.json ?? 'null'},"body_truncated":${(requestBody?.truncated ?? false) || !!input.loaded?.requestTruncated}` +
      `,"ignored":${JSON.stringify(input.ignored ?? [])}}` +
      `,"response":{"body":${shared === undefined ? (responseBody?.json ?? 'null') : 'null'},"body_truncated":${(responseBody?.truncated ?? false) || !!input.loaded?.responseTruncated}}` +
      `${input.loaded ? ',"loaded":true' : ''}${input.trail === undefined ? '' : `,"trail":${this.keptTrail(input.trail)}`}}`;
    // The path a listing filters on is decoded (the JSON keeps it as sent): a filter arrives decoded by the query parser.
    this.hold(workspace, json, { seq: ++this.seq, id, method, path: decodedOrAsWritten(input.path), operationId, status: input.status, body: shared });
  }

  /** A body redacted and cut to the cap, as JSON. */
  private keptBody(body: unknown): KeptText {
    const { value, truncated } = capBody(body, this.maxBodyBytes, this.names);
    return { json: JSON.stringify(value) ?? 'null', truncated };
  }

  /** Kept JSON bytes' redacted text, made when they are first recorded. */
  private sharedBody(json: Buffer): SharedText {
    return remembered(this.bodies, json, () => {
      const text = this.keptBody(JSON.parse(json.toString()));
      return { ...text, bytes: Buffer.byteLength(text.json) };
    });
  }

  /** A query redacted, as JSON; a kept query object already recorded is not walked again. */
  private redactedQuery(query: Record<string, unknown> | undefined, kept: boolean): string {
    if (query === undefined || isEmpty(query)) return '{}';
    const text = () => JSON.stringify(redactQuery(query, this.names));
    return kept ? remembered(this.queries, query, text) : text();
  }

  /**
   * A trail's kept copy, as JSON. A frozen trail is one of the few that many answers share (src/pipeline/request-trail.ts):
   * it is copied once.
   */
  private keptTrail(trail: RequestTrail): string {
    const text = () => JSON.stringify(keptTrail(trail, this.maxBodyBytes, this.names));
    return Object.isFrozen(trail) ? remembered(this.trails, trail, text) : text();
  }

  private hold(workspace: string, json: string, fields: EntryFields): void {
    let ring = this.rings.get(workspace);
    if (!ring) this.rings.set(workspace, (ring = new JournalRing(this.capacity)));
    const { bytes, dropped } = ring.push(json, fields);
    this.totalBytes += bytes - dropped;
    // The ring's own byte bound; its newest entry always stays (one entry is at most a few caps).
    while (ring.bytes > this.maxWorkspaceBytes && ring.size > 1) this.totalBytes -= ring.dropOldest();
    if (this.totalBytes > this.maxTotalBytes) this.shrinkTotal();
  }

  /**
   * All rings past the total: the ring holding most gives up its oldest entries until it holds no more than the
   * next largest, then again, down to seven eighths of the total (so this runs once per many records, not each).
   */
  private shrinkTotal(): void {
    const target = Math.floor((this.maxTotalBytes * 7) / 8);
    while (this.totalBytes > target) {
      let largest: JournalRing | undefined;
      let second = 0;
      for (const ring of this.rings.values()) {
        if (!largest || ring.bytes > largest.bytes) {
          second = largest?.bytes ?? 0;
          largest = ring;
        } else if (ring.bytes > second) second = ring.bytes;
      }
      if (!largest || largest.size === 0) return;
      do this.totalBytes -= largest.dropOldest();
      while (largest.size > 0 && largest.bytes >= second && this.totalBytes > target);
    }
  }

  /** How many entries are held, in every ring. */
  get size(): number {
    let count = 0;
    for (const ring of this.rings.values()) count += ring.size;
    return count;
  }

  /** What the journal holds: entries and about how many bytes, per workspace and in all. */
  usage(): { entries: number; bytes: number; workspaces: Map<string, { entries: number; bytes: number }> } {
    const workspaces = new Map<string, { entries: number; bytes: number }>();
    for (const [name, ring] of this.rings) workspaces.set(name, { entries: ring.size, bytes: ring.bytes });
    return { entries: this.size, bytes: this.totalBytes, workspaces };
  }

  /** About how many bytes one workspace's ring holds (0 for none). */
  bytesOf(workspace: string): number {
    return this.rings.get(workspace)?.bytes ?? 0;
  }

  /** Entries matching the filter, newest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.read(filter, false).entries;
  }

  /**
   * Entries matching the filter, newest first, and how many more match than its limit let through (counted, never
   * copied or serialised: a poller's bounded read stays bounded whatever the flood).
   */
  page(filter: JournalFilter = {}): { entries: JournalEntry[]; unlisted: number } {
    return this.read(filter, true);
  }

  private read(filter: JournalFilter, countRest: boolean): { entries: JournalEntry[]; unlisted: number } {
    const method = filter.method?.toUpperCase();
    const path = filter.path;
    const pathPrefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
    // Compared with the entries' decoded paths: as the query parser gave it (`%2F` typed as such, or escaped again in
    // a URL) and decoded once more (`%2F` as the parser left it from `%252F`, or sent by a client that escapes `%`).
    const pathText = pathPrefix ?? path;
    const paths = pathText === undefined ? undefined : [...new Set([decodedOrAsWritten(pathText), pathText])].map((text) => Buffer.from(text));
    const status = filter.status === undefined ? undefined : statusMatcher(filter.status);
    const limit = filter.limit ?? Infinity;
    const wanted: Wanted = {
      method: method ? Buffer.from(method) : undefined,
      paths,
      prefix: pathPrefix !== undefined,
      operationId: filter.operationId ? Buffer.from(filter.operationId) : undefined,
      id: filter.id === undefined ? undefined : Buffer.from(filter.id),
      status,
    };
    const rings = filter.workspace === undefined ? [...this.rings.values()] : [this.rings.get(filter.workspace)].filter((r) => r !== undefined);
    const matches = (ring: JournalRing, slot: number) => ring.matches(slot, wanted);
    return newestFirst(rings, matches, limit, filter.after === undefined ? 0 : newestSeqOf(rings, Buffer.from(filter.after)), countRest);
  }

  /**
   * The version of what a listing of one workspace (or, without one, of every ring) holds: it changes with every
   * entry recorded, dropped or cleared there (its newest entry's place in the order of all rings, and how many it
   * holds), so a reader can tell "nothing new" without a listing. Opaque: keyed, so it says nothing of how many
   * requests other workspaces made.
   */
  version(workspace?: string): string {
    const ring = workspace === undefined ? undefined : this.rings.get(workspace);
    const counts = workspace === undefined ? `${this.seq}-${this.size}` : `${ring?.newestSeq ?? 0}-${ring?.size ?? 0}`;
    return createHmac('sha256', this.versionKey).update(counts).digest('base64url').slice(0, 22);
  }

  /** Forgets entries: all of them, or only some workspaces' rings (so resetting a workspace leaves others' history). */
  clear(workspace?: string | ReadonlySet<string>): void {
    const names = workspace === undefined ? [...this.rings.keys()] : typeof workspace === 'string' ? [workspace] : workspace;
    for (const name of names) {
      this.totalBytes -= this.rings.get(name)?.bytes ?? 0;
      this.rings.delete(name);
    }
  }
}

/** The place in the order of all rings of the newest entry with this id; 0 when none has it. */
function newestSeqOf(rings: JournalRing[], id: Buffer): number {
  let newest = 0;
  const wanted: Wanted = { id, prefix: false };
  for (const ring of rings) {
    for (const slot of ring.newestFirst()) {
      if (ring.seqOf(slot) <= newest) break;
      if (ring.matches(slot, wanted)) {
        newest = ring.seqOf(slot);
        break;
      }
    }
  }
  return newest;
}

/**
 * The matching entries of several rings merged newest first (by the order they were recorded in), at most `limit`,
 * recorded after `after` (a place in that order): a heap of each ring's next match, so listing a few entries of many
 * rings reads only what it answers.
 */
function newestFirst(
  rings: JournalRing[],
  matches: (ring: JournalRing, slot: number) => boolean,
  limit: number,
  after: number,
  countRest: boolean,
): { entries: JournalEntry[]; unlisted: number } {
  const heads: { ring: JournalRing; next: number; seq: number; rest: Generator<number> }[] = [];
  // The next matching slot of `ring`, or -1.
  const nextMatch = (ring: JournalRing, rest: Generator<number>): number => {
    // Not for...of: leaving that loop early would close the generator. A ring is newest first: past `after`, none is newer.
    for (let step = rest.next(); !step.done && ring.seqOf(step.value) > after; step = rest.next()) if (matches(ring, step.value)) return step.value;
    return -1;
  };
  const above = (i: number, j: number) => heads[i]!.seq > heads[j]!.seq;
  const swap = (i: number, j: number) => ([heads[i], heads[j]] = [heads[j]!, heads[i]!]);
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heads.length && above(l, top)) top = l;
      if (r < heads.length && above(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  for (const ring of rings) {
    const rest = ring.newestFirst();
    const next = nextMatch(ring, rest);
    if (next >= 0) heads.push({ ring, next, seq: ring.seqOf(next), rest });
  }
  for (let i = (heads.length >> 1) - 1; i >= 0; i--) siftDown(i);
  const out: JournalEntry[] = [];
  while (heads.length > 0 && out.length < limit) {
    const head = heads[0]!;
    out.push(head.ring.entryOf(head.next));
    const next = nextMatch(head.ring, head.rest);
    if (next >= 0) {
      head.next = next;
      head.seq = head.ring.seqOf(next);
    } else heads[0] = heads[heads.length - 1]!;
    if (next < 0) heads.pop();
    if (heads.length > 0) siftDown(0);
  }
  let unlisted = 0;
  if (countRest) for (const head of heads) for (let next = head.next; next >= 0; next = nextMatch(head.ring, head.rest)) unlisted++;
  return { entries: out, unlisted };
}

// The ring of one workspace: at most so many entries and so many bytes, the oldest dropped first. Entries arrive
// redacted and capped (above), as JSON; what a ring counts is the bytes of that JSON, which it holds.

/** One recorded request, as GET /_sandbox/requests shows it (the contract's SandboxRequest). */
export type JournalEntry = components['schemas']['SandboxRequest'];

/** What a ring keeps of an entry beside its JSON: its place in the order of all rings, the fields a listing filters on. */
interface EntryFields {
  seq: number;
  id: string;
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  /** A kept body's text, which the entry's JSON holds null in place of. */
  body: SharedText | undefined;
}

/** What a listing asks of the fields of an entry, as the bytes they are kept in (undefined: any). */
interface Wanted {
  method?: Buffer;
  /** The decoded path, or its start when `prefix`: any of these spellings. */
  paths?: Buffer[];
  prefix: boolean;
  operationId?: Buffer;
  id?: Buffer;
  status?: (status: number) => boolean;
}

// The smallest byte buffer a ring makes, and how much room it leaves beside what it holds when it makes one.
const MIN_STORE_BYTES = 1024;
const STORE_HEADROOM = 1.5;
// How many entries a ring has places for at first; it doubles them up to its capacity.
const FIRST_PLACES = 8;
// The length a null operation id is written with.
const NO_TEXT = 0xffffffff;

/**
 * A bounded ring, newest last. Each entry is one record in one byte buffer: its status, method, path, operation id
 * and request id (what a listing filters on, each a length and its bytes), then its JSON. The buffer is used as a
 * circle in the order of the entries (written after the newest, the oldest dropped from the front); one that does
 * not fit is written after a new buffer's copy of the others, sized to what they hold (which also gives back what a
 * shrunk ring left unused). Where each record lies is in typed arrays: a ring holds no object per entry (a kept
 * answer's shared body text aside), so its entries cost the garbage collector nothing to keep.
 */
export class JournalRing {
  // Per place, the entry's place in the order of all rings, where its record starts, its length, the bytes it counts.
  private seqs = new Float64Array(FIRST_PLACES);
  private starts = new Uint32Array(FIRST_PLACES);
  private lengths = new Uint32Array(FIRST_PLACES);
  private counted = new Uint32Array(FIRST_PLACES);
  private bodies: (SharedText | undefined)[] = new Array(FIRST_PLACES);
  private first = 0; // the place of the oldest entry
  private count = 0;
  private store: Buffer = Buffer.alloc(0);
  private head = 0; // where the next record goes
  /** How many bytes the held entries count (their JSON, and their shared bodies'). */
  bytes = 0;
  /** How many bytes of the buffer the held records take. */
  private stored = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.count;
  }

  /** The place in the order of all rings of the newest entry held (0 when empty). */
  get newestSeq(): number {
    return this.count === 0 ? 0 : this.seqs[this.placeOf(this.count - 1)]!;
  }

  /**
   * Adds an entry, its JSON `json`: answers the bytes it counts and how many the ring let go to make room (the
   * capacity's oldest).
   */
  push(json: string, fields: EntryFields): { bytes: number; dropped: number } {
    const dropped = this.count === this.capacity ? this.dropOldest() : 0;
    if (this.count === this.seqs.length) this.grow();
    const op = fields.operationId;
    const jsonBytes = Buffer.byteLength(json);
    const parts = [fields.method, fields.path, op ?? '', fields.id];
    let length = 2 + 4 * parts.length + jsonBytes;
    for (const part of parts) length += Buffer.byteLength(part);
    let at = this.place(length);
    const start = at;
    at = this.store.writeUInt16LE(fields.status, at);
    for (let i = 0; i < parts.length; i++) {
      const size = this.store.write(parts[i]!, at + 4);
      this.store.writeUInt32LE(i === 2 && op === null ? NO_TEXT : size, at);
      at += 4 + size;
    }
    this.store.write(json, at);
    this.head = start + length;
    this.stored += length;
    const place = this.placeOf(this.count);
    const bytes = jsonBytes + (fields.body?.bytes ?? 0);
    this.seqs[place] = fields.seq;
    this.starts[place] = start;
    this.lengths[place] = length;
    this.counted[place] = bytes;
    this.bodies[place] = fields.body;
    this.count++;
    this.bytes += bytes;
    return { bytes, dropped };
  }

  /** Drops the oldest entry; answers the bytes it counted (0 when empty). */
  dropOldest(): number {
    if (this.count === 0) return 0;
    const oldest = this.first;
    const bytes = this.counted[oldest]!;
    this.bodies[oldest] = undefined;
    this.stored -= this.lengths[oldest]!;
    this.first = (this.first + 1) % this.seqs.length;
    this.count--;
    this.bytes -= bytes;
    return bytes;
  }

  /** The places of the held entries, newest first. */
  *newestFirst(): Generator<number> {
    for (let i = this.count - 1; i >= 0; i--) yield this.placeOf(i);
  }

  /** The place in the order of all rings of the entry at `place`. */
  seqOf(place: number): number {
    return this.seqs[place]!;
  }

  /** Whether the entry at `place` has the fields `wanted` asks for. */
  matches(place: number, wanted: Wanted): boolean {
    let at = this.starts[place]!;
    if (wanted.status && !wanted.status(this.store.readUInt16LE(at))) return false;
    at += 2;
    const texts: (Buffer[] | Buffer | undefined)[] = [wanted.method, wanted.paths, wanted.operationId, wanted.id];
    for (let i = 0; i < texts.length; i++) {
      const size = this.store.readUInt32LE(at);
      const want = texts[i];
      if (want !== undefined) {
        if (size === NO_TEXT) return false;
        const prefix = i === 1 && wanted.prefix;
        if (Array.isArray(want)) {
          let any = false;
          for (const text of want) any ||= this.holds(at, size, text, prefix);
          if (!any) return false;
        } else if (!this.holds(at, size, want, prefix)) return false;
      }
      at += 4 + (size === NO_TEXT ? 0 : size);
    }
    return true;
  }

  /** Whether the text of `size` bytes written at `at` (after its length) is `text`, or starts with it. */
  private holds(at: number, size: number, text: Buffer, prefix: boolean): boolean {
    return (prefix ? size >= text.length : size === text.length) && text.compare(this.store, at + 4, at + 4 + text.length) === 0;
  }

  /** The entry at `place` (one this ring holds) as the listing shows it. */
  entryOf(place: number): JournalEntry {
    const start = this.starts[place]!;
    let at = start + 2;
    for (let i = 0; i < 4; i++) {
      const size = this.store.readUInt32LE(at);
      at += 4 + (size === NO_TEXT ? 0 : size);
    }
    const entry = JSON.parse(this.store.toString('utf8', at, start + this.lengths[place]!)) as JournalEntry;
    const body = this.bodies[place];
    if (body !== undefined) entry.response.body = JSON.parse(body.json);
    return entry;
  }

  /** The place of the `i`th entry held, oldest first. */
  private placeOf(i: number): number {
    return (this.first + i) % this.seqs.length;
  }

  /** Twice the places (at most the capacity), the entries moved to the first ones in their order. */
  private grow(): void {
    const places = Math.min(this.capacity, this.seqs.length * 2);
    const seqs = new Float64Array(places);
    const starts = new Uint32Array(places);
    const lengths = new Uint32Array(places);
    const counted = new Uint32Array(places);
    const bodies: (SharedText | undefined)[] = new Array(places);
    for (let i = 0; i < this.count; i++) {
      const from = this.placeOf(i);
      seqs[i] = this.seqs[from]!;
      starts[i] = this.starts[from]!;
      lengths[i] = this.lengths[from]!;
      counted[i] = this.counted[from]!;
      bodies[i] = this.bodies[from];
    }
    this.seqs = seqs;
    this.starts = starts;
    this.lengths = lengths;
    this.counted = counted;
    this.bodies = bodies;
    this.first = 0;
  }

  /** Where `length` bytes go: after the newest record, else at the buffer's start, else in a new buffer. */
  private place(length: number): number {
    if (this.count === 0) this.head = 0;
    const tail = this.count === 0 ? 0 : this.starts[this.first]!;
    // Not wrapped: the records lie from the oldest's start to `head`, with room after them and before them.
    if (this.count === 0 || this.head > tail) {
      if (this.store.length - this.head >= length) return this.head;
      if (tail >= length) return 0;
    } else if (tail - this.head >= length) return this.head;
    this.restore(length);
    return this.head;
  }

  /** Copies the held records, oldest first, to the start of a new buffer with room for `length` more bytes. */
  private restore(length: number): void {
    const store = Buffer.allocUnsafeSlow(Math.max(MIN_STORE_BYTES, Math.ceil((this.stored + length) * STORE_HEADROOM)));
    let at = 0;
    for (let i = 0; i < this.count; i++) {
      const place = this.placeOf(i);
      this.store.copy(store, at, this.starts[place]!, this.starts[place]! + this.lengths[place]!);
      this.starts[place] = at;
      at += this.lengths[place]!;
    }
    this.store = store;
    this.head = at;
  }
}

// A request's trail as the journal keeps it, whoever hands it over (the pipeline, a loaded bundle): copied, never
// held by reference; a field error's value redacted as a body's field of that name is (a secret anywhere on its path
// is `[REDACTED]`) and cut with its rule's parameters to one body cap; every text within the contract's bounds, so
// an exported journal loads again.

/** Why a request was answered as it was (the contract's SandboxRequestTrail). */
export type RequestTrail = components['schemas']['SandboxRequestTrail'];
type FieldError = NonNullable<RequestTrail['field_errors']>[number];

// The contract's bounds of a trail (SandboxRequestTrail in openapi.yaml).
const MAX_FIELD_ERRORS = 100;
const MAX_ALLOW = 16;
const MAX_PARAMS = 16;

const MATCHED_ROUTE: RequestTrail['route'] = Object.freeze({ matched: true });

/** A kept copy of a trail: its values within `budget` bytes of JSON, secrets redacted by the names on their path. */
function keptTrail(trail: RequestTrail, budget: number, names: SecretNames): RequestTrail {
  const { answered_by, route, record, field_errors, prefer, response_check, docs_anchor } = trail;
  return {
    answered_by,
    route:
      route.matched && route.allow === undefined
        ? MATCHED_ROUTE
        : { matched: route.matched, ...(route.allow && { allow: route.allow.slice(0, MAX_ALLOW).map((m) => clipText(m, 16)) }) },
    ...(record && {
      record: {
        parameter: clipText(record.parameter, 128),
        id: names.is(record.parameter) ? REDACTED : clipText(record.id, 1024),
        outcome: record.outcome,
      },
    }),
    ...(field_errors && { field_errors: keptFieldErrors(field_errors, budget, names) }),
    ...(prefer && {
      prefer: {
        ...(prefer.code !== undefined && { code: prefer.code }),
        ...(prefer.delay !== undefined && { delay: prefer.delay }),
        ...(prefer.retailer_fault !== undefined && { retailer_fault: clipText(prefer.retailer_fault, 32) }),
        ...(prefer.strict !== undefined && { strict: prefer.strict }),
        ...(prefer.applied !== undefined && { applied: clipText(prefer.applied, 1024) }),
        ...(prefer.error !== undefined && { error: clipText(prefer.error, 2048) }),
      },
    }),
    response_check,
    ...(docs_anchor !== undefined && { docs_anchor: clipText(docs_anchor, 256) }),
  };
}

function keptFieldErrors(errors: readonly FieldError[], budget: number, names: SecretNames): FieldError[] {
  let left = budget;
  const cut = (value: unknown): unknown => {
    const capped = capBody(value, Math.max(0, left), names);
    left -= capped.bytes;
    return capped.value;
  };
  return errors.slice(0, MAX_FIELD_ERRORS).map(({ field, message, value, rule }) => ({
    field: clipText(field, 1024),
    message: clipText(message, 2048),
    ...(value !== undefined && { value: secretPath(field, names) ? REDACTED : cut(value) }),
    ...(rule && {
      rule: {
        keyword: clipText(rule.keyword, 64),
        params: cut(Object.fromEntries(Object.entries(rule.params).slice(0, MAX_PARAMS))) as Record<string, unknown>,
      },
    }),
  }));
}

/** Whether a field's path (`body.credentials.password`, `query.code`) passes through a secret's name. */
function secretPath(field: string, names: SecretNames): boolean {
  const segments = field.split('.');
  const where = segments[0] === 'query' ? 'query' : 'body';
  return segments.some((segment) => names.is(segment, where));
}
