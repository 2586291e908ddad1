// A contract test that fails wants to know what the client actually sent and what it got back. The journal
// keeps the most recent requests in memory (bounded: a long CI run must not grow the process without limit).
// Secrets can never be read back from it: an entry is redacted the first time it is read (list), and only then
// does it exist as an entry. Most recorded requests are never read, so recording stays a few field copies.
import { randomUUID } from 'node:crypto';
import type { components } from '../contract/generated.js';
import { DEFAULT_WORKSPACE } from '../worlds.js';
import { redactBody, redactHeaders, redactQuery, type RedactedBodies } from './redact.js';

/** One recorded request, as GET /_sandbox/requests shows it (the contract's SandboxRequest). */
export type JournalEntry = components['schemas']['SandboxRequest'];

/** What the app hands over after a response was sent; raw values, the journal redacts them. */
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
  /** When the request arrived; defaults to the journal's clock. */
  at?: Date;
}

/** Filters of GET /_sandbox/requests; all optional, combined with AND. */
export interface JournalFilter {
  method?: string;
  /** Exact path, or a prefix when it ends with '*' (e.g. '/2024-09/products*'). */
  path?: string;
  operationId?: string;
  /** An exact status (404) or a class ('4xx'). */
  status?: number | string;
  workspace?: string;
  /** At most this many entries (newest first). */
  limit?: number;
}

/** Construction options; the defaults suit a sandbox process. */
export interface RequestJournalOptions {
  /** How many entries are kept; the oldest is dropped first. */
  capacity?: number;
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

/** What a slot holds until the entry is first read: the entry's plain fields and the raw parts to redact. */
interface Slot {
  head: Omit<JournalEntry, 'at' | 'request' | 'response'> & { at: Date };
  raw: Pick<JournalRecordInput, 'query' | 'headers' | 'requestBody' | 'responseBody' | 'ignored'> | undefined;
  entry: JournalEntry | undefined;
}

/** Bounded ring buffer of request records, newest first, redacted on first read. */
export class RequestJournal {
  readonly capacity: number;
  private readonly slots: (Slot | undefined)[];
  private next = 0; // where the next entry goes
  private count = 0;
  private readonly now: () => Date;
  private readonly newId: () => string;
  // A replayed answer hands the journal the same body object on every hit: it is redacted once, not per entry.
  private readonly redactedBodies: RedactedBodies = new WeakMap();

  constructor(options: RequestJournalOptions = {}) {
    const capacity = options.capacity ?? 1000;
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`journal capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.slots = new Array(capacity);
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? randomUUID;
  }

  /** Records one request. Its parts are redacted when it is first listed; callers never change them afterwards. */
  record(input: JournalRecordInput): void {
    this.push({
      head: {
        id: input.id ?? this.newId(),
        at: input.at ?? this.now(),
        workspace: input.workspace ?? DEFAULT_WORKSPACE,
        method: input.method.toUpperCase(),
        path: input.path,
        operation_id: input.operationId ?? null,
        status: input.status,
        duration_ms: Math.max(0, Math.round(input.durationMs * 100) / 100),
      },
      raw: { query: input.query, headers: input.headers, requestBody: input.requestBody, responseBody: input.responseBody, ignored: input.ignored },
      entry: undefined,
    });
  }

  private push(slot: Slot): void {
    this.slots[this.next] = slot;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The slot's entry, redacted now if this is its first read; the raw parts are dropped then. */
  private entryOf(slot: Slot): JournalEntry {
    if (!slot.entry) {
      const raw = slot.raw ?? {};
      slot.entry = {
        ...slot.head,
        at: slot.head.at.toISOString(),
        request: {
          query: redactQuery(raw.query ?? {}),
          headers: redactHeaders(raw.headers ?? {}),
          body: raw.requestBody === undefined ? null : redactBody(raw.requestBody, this.redactedBodies),
          ignored: raw.ignored ?? [],
        },
        response: { body: raw.responseBody === undefined ? null : redactBody(raw.responseBody, this.redactedBodies) },
      };
      slot.raw = undefined;
    }
    return slot.entry;
  }

  /** How many entries are held. */
  get size(): number {
    return this.count;
  }

  /** Entries matching the filter, newest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const method = filter.method?.toUpperCase();
    const path = filter.path;
    const pathPrefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
    const status = filter.status === undefined ? undefined : statusMatcher(filter.status);
    const limit = filter.limit ?? Infinity;
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.count && out.length < limit; i++) {
      const slot = this.slots[(this.next - i + this.capacity) % this.capacity]!;
      const head = slot.head;
      if (method && head.method !== method) continue;
      if (path !== undefined && (pathPrefix !== undefined ? !head.path.startsWith(pathPrefix) : head.path !== path)) continue;
      if (filter.operationId && head.operation_id !== filter.operationId) continue;
      if (status && !status(head.status)) continue;
      if (filter.workspace && head.workspace !== filter.workspace) continue;
      out.push(this.entryOf(slot));
    }
    return out;
  }

  /** Forgets entries: all of them, or only some workspaces' (so resetting a workspace leaves others' history). */
  clear(workspace?: string | ReadonlySet<string>): void {
    if (workspace === undefined) {
      this.slots.fill(undefined);
      this.next = 0;
      this.count = 0;
      return;
    }
    const kept: Slot[] = [];
    for (let i = this.count; i >= 1; i--) {
      const slot = this.slots[(this.next - i + this.capacity) % this.capacity]!;
      const gone = typeof workspace === 'string' ? slot.head.workspace === workspace : workspace.has(slot.head.workspace);
      if (!gone) kept.push(slot);
    }
    this.clear();
    for (const slot of kept) this.push(slot);
  }
}
