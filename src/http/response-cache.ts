// Cached answers in front of Express: the durability-and-speed issue's fast path. The slow path (Express, auth,
// request validation, handler, response validation) answers a read once; its exact bytes are kept while the world's
// store has not changed, and later identical reads get those bytes without running Express again. Only answers
// the response validator let through as a 200 are kept, so every cached answer is one the contract accepted.
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import type { AppLocals } from '../contract/mount-contract.js';
import type { Store } from '../store/store.js';
import type { World } from '../world.js';
import { bearerToken, type AuthenticatedRequest } from './auth.js';
import { ignoredOf } from './ignored-fields.js';
import { assignRequestId } from './request-id.js';

/**
 * The reads whose 200 depends only on the store, the caller and the URL (host and query included), so the bytes of
 * one answer are right for every identical request until the store changes. Left out on purpose, after reading
 * their handlers: anything derived from the clock (catalog items and their offers, price history, sales ranks and
 * images; imports; sales volume forecasts; scraping requests and attempts; channels, whose connection state follows
 * token expiry; the relay), and reads that catch up lazily and may write (getSupplier, supplier items).
 */
export const CACHEABLE_OPERATIONS: ReadonlySet<string> = new Set([
  'listMerchants',
  'getMerchant',
  'getCurrentUser',
  'listMerchantMemberships',
  'listProducts',
  'getProduct',
  'listProductImages',
  'listSuppliers',
  'listMarketplaces',
  'listOpportunityForecasts',
]);

/** Bounds of the cache; the defaults keep it well under the start-up RSS budget. */
export interface ResponseCacheOptions {
  /** At most this many answers (the oldest is dropped first). Default 2000. */
  maxEntries?: number;
  /** At most this many body bytes in all. Default 32 MiB. */
  maxBytes?: number;
  /** Which operations may be cached. Default CACHEABLE_OPERATIONS (tests pass their own). */
  operations?: ReadonlySet<string>;
}

/** How the cache has been used: tests read it to tell a cached answer from a computed one. */
export interface ResponseCacheStats {
  hits: number;
  misses: number;
  stored: number;
  entries: number;
  bytes: number;
}

interface Entry {
  store: Store;
  version: number;
  statusMessage: string;
  headers: Record<string, OutgoingHttpHeader>;
  body: Buffer;
  operationId: string;
  path: string;
  query: Record<string, unknown>;
  /** What the tolerant reader ignored in the request the answer was computed for (the same URL: the same fields). */
  ignored: string[] | undefined;
  responseBody: unknown;
  workspace: string;
}

type Next = () => void;

/**
 * Serves a request from the cache or hands it to `next` (Express), capturing the answer when it may be cached.
 * Reads app.locals.sandbox on every request, so it follows whatever worlds and config the app holds.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly operations: ReadonlySet<string>;
  readonly stats: ResponseCacheStats = { hits: 0, misses: 0, stored: 0, entries: 0, bytes: 0 };

  constructor(
    private readonly locals: () => Partial<AppLocals> | undefined,
    options: ResponseCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.operations = options.operations ?? CACHEABLE_OPERATIONS;
  }

  handle(req: IncomingMessage, res: ServerResponse, next: Next): void {
    const locals = this.locals();
    const worlds = locals?.worlds;
    if (!worlds || !isCacheable(req, locals.config?.latencyMs ?? 0)) return next();
    const token = bearerToken(req.headers.authorization);
    // Authentication runs on a hit too; an unknown token goes the slow way, which answers the documented 401.
    const auth = token === undefined ? undefined : worlds.authenticate(token);
    if (!auth) return next();
    // The forwarded headers are part of the key: behind a trusted proxy they change the links in the answer.
    const forwarded = `${req.headers['x-forwarded-proto'] ?? ''}\n${req.headers['x-forwarded-host'] ?? ''}`;
    const key = `${auth.world.id}\n${auth.user.id}\n${req.headers.host ?? ''}\n${forwarded}\n${req.headers.accept ?? ''}\n${req.url}`;
    const entry = this.entries.get(key);
    const { store } = auth.world;
    if (entry && entry.store === store && entry.version === store.version) {
      this.serve(req, res, entry, locals);
      return;
    }
    if (entry) this.drop(key, entry);
    this.stats.misses++;
    this.capture(req, res, key, auth.world, auth.user.id);
    next();
  }

  /** Forgets every answer (tests; a world swapped under the app). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.stats.entries = 0;
    this.stats.bytes = 0;
  }

  private serve(req: IncomingMessage, res: ServerResponse, entry: Entry, locals: Partial<AppLocals>): void {
    const at = new Date();
    const started = process.hrtime.bigint();
    this.stats.hits++;
    // Each answer has its own id; the stored headers never hold the id of the answer they were captured from.
    const requestId = assignRequestId(req, res);
    res.writeHead(200, entry.statusMessage, entry.headers);
    res.end(entry.body);
    // The journal, the coverage report and the log see a cached answer like any other.
    const observe = locals.observe;
    if (observe) {
      observe({
        requestId,
        at,
        method: 'GET',
        url: req.url ?? entry.path,
        path: entry.path,
        query: entry.query,
        ignored: entry.ignored,
        headers: req.headers,
        requestBody: undefined,
        responseBody: entry.responseBody,
        status: 200,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        operationId: entry.operationId,
        workspace: entry.workspace,
      });
    }
  }

  /** Collects what the slow path writes and keeps it if it is a validated 200 of an allowed read of an unchanged store. */
  private capture(req: IncomingMessage, res: ServerResponse, key: string, world: World, userId: string): void {
    const { store } = world;
    const version = store.version;
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    const collect = (chunk: unknown, encoding: unknown) => {
      if (overflow || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      if (size > this.maxBytes / 8) overflow = true;
      else chunks.push(buffer);
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];

    res.once('finish', () => {
      if (overflow || res.statusCode !== 200) return;
      const operationId = (req as { openapi?: { schema?: { operationId?: unknown } } }).openapi?.schema?.operationId;
      if (typeof operationId !== 'string' || !this.operations.has(operationId)) return;
      const auth = (req as AuthenticatedRequest).auth;
      // The answer belongs to this world, this user and this exact state: a write while it was made voids it.
      if (auth?.world !== world || auth.user.id !== userId || world.store !== store || store.version !== version) return;
      const contentType = res.getHeader('content-type');
      if (typeof contentType !== 'string' || !contentType.startsWith('application/json')) return;
      const body = Buffer.concat(chunks);
      const length = res.getHeader('content-length');
      if (length !== undefined && Number(length) !== body.length) return;
      let responseBody: unknown;
      try {
        responseBody = JSON.parse(body.toString('utf8'));
      } catch {
        return;
      }
      const headers: Record<string, OutgoingHttpHeader> = {};
      for (const name of res.getHeaderNames()) headers[name] = res.getHeader(name)!;
      // The names as the slow path spelled them, so a cached answer is byte for byte the computed one.
      const raw = (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
      const spelled: Record<string, OutgoingHttpHeader> = {};
      for (const name of raw) if (name.toLowerCase() !== 'x-request-id') spelled[name] = headers[name.toLowerCase()];
      const url = req.url ?? '';
      const q = url.indexOf('?');
      const ignored = ignoredOf(res as { locals?: Record<string, unknown> });
      this.keep(key, {
        store,
        version,
        statusMessage: res.statusMessage || 'OK',
        headers: spelled,
        body,
        operationId,
        path: q === -1 ? url : url.slice(0, q),
        query: (ignored?.received.query ?? (req as { query?: Record<string, unknown> }).query ?? {}) as Record<string, unknown>,
        ignored: ignored?.fields,
        responseBody,
        workspace: this.locals()?.worlds?.nameOf(world) ?? 'default',
      });
    });
  }

  private keep(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    this.stats.stored++;
    // Oldest first: Map keeps insertion order.
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.drop(k, e);
    }
    this.stats.entries = this.entries.size;
    this.stats.bytes = this.bytes;
  }

  private drop(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bytes -= entry.body.length;
    this.stats.entries = this.entries.size;
    this.stats.bytes = this.bytes;
  }
}

/**
 * A read the cache may answer: a GET without a body, without Prefer (scenario knobs change the answer), without
 * Origin (CORS headers depend on it), and only when no latency is configured (a cached answer must not be faster
 * than the server is told to be).
 */
function isCacheable(req: IncomingMessage, latencyMs: number): boolean {
  if (req.method !== 'GET' || latencyMs > 0) return false;
  const h = req.headers;
  if (h.prefer !== undefined || h.origin !== undefined || h['transfer-encoding'] !== undefined) return false;
  return h['content-length'] === undefined || h['content-length'] === '0';
}
