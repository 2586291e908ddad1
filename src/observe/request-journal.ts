// A contract test that fails wants to know what the client actually sent and what it got back. The journal keeps
// the most recent requests in memory, per workspace: each workspace (and the default world) has its own bounded
// ring, so one tenant's flood never evicts another's entries. What it keeps is redacted and capped when recorded:
// a 1 MiB body costs an entry no more than the cap, and a secret is never held, so a read can never leak one.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { JOURNAL_DEFAULTS } from '../config.js';
import { DEFAULT_WORKSPACE } from '../worlds.js';
import type { components } from '../contract/document/generated.js';
import { IsoTimes } from '../world.js';
import { capBody, clipText, REDACTED, redactHeaders, redactQuery, SecretNames, type RedactedBodies } from './redact.js';

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
  /** What the tolerant reader ignored (`query._`, `body.id`). */
  ignored?: string[];
  /** Why it was answered as it was (src/pipeline/request-trail.ts); kept redacted and counted like the bodies. */
  trail?: RequestTrail;
  /** When the request arrived; defaults to the journal's clock. */
  at?: Date;
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

/** The `ignored` of an entry whose request had nothing ignored: one array for all of them. */
const NONE_IGNORED: readonly string[] = Object.freeze([]);

// What an entry holds beside its bodies, headers and query (ids, path, time, the JSON around them).
const ENTRY_OVERHEAD_BYTES = 256;

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

function textBytes(record: Record<string, string>): number {
  let bytes = 0;
  for (const key in record) bytes += key.length + record[key]!.length + 6;
  return bytes;
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
  // A replayed answer hands the journal the same body object on every hit: it is copied once, not per entry.
  private readonly copies: RedactedBodies = new WeakMap();
  /** The verdicts on the names it redacts on every request (headers, body fields), and its arrival times' text. */
  private readonly names = new SecretNames();
  private readonly times = new IsoTimes();
  /** Redacted copies of the queries recorded, with their JSON's length, by query: a replayed answer hands the same one. */
  private readonly queries = new WeakMap<object, { value: Record<string, unknown>; json: number }>();
  /** Kept copies of the trails recorded, with their JSON's length, by trail: a replayed answer hands the same one. */
  private readonly trails = new WeakMap<RequestTrail, { value: RequestTrail; json: number }>();
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
    const { value: query, json: queryJson } = this.redactedQuery(input.query);
    const headers = redactHeaders(input.headers ?? {}, this.names);
    const requestBody = input.requestBody === undefined ? undefined : capBody(input.requestBody, this.maxBodyBytes, this.copies, this.names);
    const responseBody = input.responseBody === undefined ? undefined : capBody(input.responseBody, this.maxBodyBytes, this.copies, this.names);
    const ignored = input.ignored ?? NONE_IGNORED;
    const trail = input.trail === undefined ? undefined : this.keptTrail(input.trail);
    const held: Held = {
      seq: 0,
      bytes: 0,
      id: input.id ?? this.newId(),
      at: this.times.of(input.at ?? this.now()),
      workspace,
      method: input.method.toUpperCase(),
      path: input.path,
      operationId: input.operationId ?? null,
      status: input.status,
      durationMs: Math.max(0, Math.round(input.durationMs * 100) / 100),
      query,
      headers,
      requestBody: requestBody?.value ?? null,
      requestTruncated: (requestBody?.truncated ?? false) || !!input.loaded?.requestTruncated,
      ignored,
      responseBody: responseBody?.value ?? null,
      responseTruncated: (responseBody?.truncated ?? false) || !!input.loaded?.responseTruncated,
      loaded: input.loaded !== undefined,
      trail: trail?.value,
    };
    held.bytes =
      ENTRY_OVERHEAD_BYTES +
      held.path.length +
      queryJson +
      textBytes(headers) +
      ignored.reduce((sum, name) => sum + name.length + 3, 0) +
      (requestBody?.bytes ?? 0) +
      (responseBody?.bytes ?? 0) +
      (trail?.json ?? 0);
    held.seq = ++this.seq;
    this.hold(workspace, held);
  }

  /** A query redacted, and its JSON's length; a query object already recorded is not walked again. */
  private redactedQuery(query: Record<string, unknown> | undefined): { value: Record<string, unknown>; json: number } {
    if (query === undefined || isEmpty(query)) return { value: {}, json: 2 };
    let kept = this.queries.get(query);
    if (kept === undefined) {
      const value = redactQuery(query, this.names);
      kept = { value, json: JSON.stringify(value).length };
      this.queries.set(query, kept);
    }
    return kept;
  }

  /** A trail's kept copy and its JSON's length; a trail already recorded is not copied again. */
  private keptTrail(trail: RequestTrail): { value: RequestTrail; json: number } {
    let kept = this.trails.get(trail);
    if (kept === undefined) {
      const value = keptTrail(trail, this.maxBodyBytes, this.names);
      kept = { value, json: JSON.stringify(value).length };
      this.trails.set(trail, kept);
    }
    return kept;
  }

  private hold(workspace: string, held: Held): void {
    let ring = this.rings.get(workspace);
    if (!ring) this.rings.set(workspace, (ring = new JournalRing(this.capacity)));
    this.totalBytes += held.bytes - ring.push(held);
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
    const status = filter.status === undefined ? undefined : statusMatcher(filter.status);
    const limit = filter.limit ?? Infinity;
    const matches = (held: Held): boolean =>
      (!method || held.method === method) &&
      (path === undefined || (pathPrefix !== undefined ? held.path.startsWith(pathPrefix) : held.path === path)) &&
      (!filter.operationId || held.operationId === filter.operationId) &&
      (filter.id === undefined || held.id === filter.id) &&
      (!status || status(held.status));
    const rings = filter.workspace === undefined ? [...this.rings.values()] : [this.rings.get(filter.workspace)].filter((r) => r !== undefined);
    return newestFirst(rings, matches, limit, filter.after === undefined ? 0 : newestSeqOf(rings, filter.after), countRest);
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
function newestSeqOf(rings: JournalRing[], id: string): number {
  let newest = 0;
  for (const ring of rings) {
    for (const held of ring.newestFirst()) {
      if (held.seq <= newest) break;
      if (held.id === id) {
        newest = held.seq;
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
  matches: (held: Held) => boolean,
  limit: number,
  after: number,
  countRest: boolean,
): { entries: JournalEntry[]; unlisted: number } {
  const heads: { next: Held; rest: Generator<Held> }[] = [];
  const nextMatch = (rest: Generator<Held>): Held | undefined => {
    // Not for...of: leaving that loop early would close the generator. A ring is newest first: past `after`, none is newer.
    for (let step = rest.next(); !step.done && step.value.seq > after; step = rest.next()) if (matches(step.value)) return step.value;
    return undefined;
  };
  const above = (i: number, j: number) => heads[i]!.next.seq > heads[j]!.next.seq;
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
    const next = nextMatch(rest);
    if (next) heads.push({ next, rest });
  }
  for (let i = (heads.length >> 1) - 1; i >= 0; i--) siftDown(i);
  const out: JournalEntry[] = [];
  while (heads.length > 0 && out.length < limit) {
    const head = heads[0]!;
    out.push(entryOf(head.next));
    const next = nextMatch(head.rest);
    if (next) head.next = next;
    else heads[0] = heads[heads.length - 1]!;
    if (!next) heads.pop();
    if (heads.length > 0) siftDown(0);
  }
  let unlisted = 0;
  if (countRest) for (const head of heads) for (let next: Held | undefined = head.next; next; next = nextMatch(head.rest)) unlisted++;
  return { entries: out, unlisted };
}

// The ring of one workspace: at most so many entries and so many bytes, the oldest dropped first. Entries arrive
// redacted and capped (above), so what a ring counts is what it holds.

/** One recorded request, as GET /_sandbox/requests shows it (the contract's SandboxRequest). */
export type JournalEntry = components['schemas']['SandboxRequest'];

/**
 * An entry as a ring keeps it, redacted and capped: its place in the order of all rings, about how many bytes it
 * holds, and its fields in one flat object (the query, bodies and trail of identical requests shared, as recorded).
 * A ring holds up to a thousand entries a workspace, each recorded on a request's way out: one object each instead
 * of the entry's nested ones is less for every request to allocate and for the garbage collector to copy. A read
 * makes the entries it answers (entryOf).
 */
interface Held {
  seq: number;
  bytes: number;
  id: string;
  at: string;
  workspace: string;
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  requestBody: unknown;
  requestTruncated: boolean;
  ignored: readonly string[];
  responseBody: unknown;
  responseTruncated: boolean;
  loaded: boolean;
  trail: RequestTrail | undefined;
}

/** The entry a read answers for what a ring holds, in the contract's order of fields. */
function entryOf(held: Held): JournalEntry {
  return {
    id: held.id,
    at: held.at,
    workspace: held.workspace,
    method: held.method,
    path: held.path,
    operation_id: held.operationId,
    status: held.status,
    duration_ms: held.durationMs,
    request: {
      query: held.query,
      headers: held.headers,
      body: held.requestBody,
      body_truncated: held.requestTruncated,
      ignored: held.ignored as string[],
    },
    response: { body: held.responseBody, body_truncated: held.responseTruncated },
    ...(held.loaded && { loaded: true }),
    ...(held.trail && { trail: held.trail }),
  } as JournalEntry;
}

/** A bounded ring, newest last. */
export class JournalRing {
  private readonly slots: (Held | undefined)[];
  private next = 0; // where the next entry goes
  private count = 0;
  /** About how many bytes the held entries take. */
  bytes = 0;

  constructor(readonly capacity: number) {
    this.slots = new Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The place in the order of all rings of the newest entry held (0 when empty). */
  get newestSeq(): number {
    return this.count === 0 ? 0 : this.slots[(this.next - 1 + this.capacity) % this.capacity]!.seq;
  }

  /** Adds an entry; answers how many bytes the ring let go to make room (the capacity's oldest). */
  push(held: Held): number {
    const dropped = this.count === this.capacity ? this.slots[this.next]!.bytes : 0;
    this.slots[this.next] = held;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    this.bytes += held.bytes - dropped;
    return dropped;
  }

  /** Drops the oldest entry; answers the bytes it held (0 when empty). */
  dropOldest(): number {
    if (this.count === 0) return 0;
    const oldest = (this.next - this.count + this.capacity) % this.capacity;
    const bytes = this.slots[oldest]!.bytes;
    this.slots[oldest] = undefined;
    this.count--;
    this.bytes -= bytes;
    return bytes;
  }

  /** The held entries, newest first. */
  *newestFirst(): Generator<Held> {
    for (let i = 1; i <= this.count; i++) yield this.slots[(this.next - i + this.capacity) % this.capacity]!;
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
    const capped = capBody(value, Math.max(0, left), undefined, names);
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
