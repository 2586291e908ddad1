// Cached answers in front of Express. The slow path (Express, auth, request validation, handler, response
// validation) answers a read once; when the contract adapter marked that answer replayable (the handler wrote
// nothing and read neither the clock nor anything kept beside the store) and the response validator let it through,
// its exact bytes are kept while the world's version (store version and clock offset) stays where it was, and later
// identical reads get those bytes without running Express again. CORS headers depend on the request's Origin only,
// so they are never stored: the fast path adds them per request with the same middleware the app uses.
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import type { Runtime } from '../runtime.js';
import type { Store } from '../store/store.js';
import type { World } from '../world.js';
import { bearerToken } from '../access/auth.js';
import { allowedOrigins, cors, corsGrant, perOrigin } from '../http/cors.js';
import { sendsNoBody } from './read-body.js';
import { idRequest, REQUEST_ID_HEADER } from '../observe/request-log.js';
import { SharedBodies } from './shared-bodies.js';
import { answerOf, arrivalOf, observeAnswered, type AnswerFacts } from '../observe/observe-requests.js';

/** Bounds of the cache; the defaults keep it well under the start-up RSS budget. */
export interface ResponseCacheOptions {
  /** At most this many answers (the oldest is dropped first). Default 2000. */
  maxEntries?: number;
  /** At most this many body bytes in all. Default 32 MiB. */
  maxBytes?: number;
}

/** How the cache has been used: tests read it to tell a cached answer from a computed one. */
export interface ResponseCacheStats {
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
  store: Store;
  version: number;
  clockOffset: number;
  statusMessage: string;
  body: Buffer;
  /** What the computed answer is about (operation, workspace, input, body): a replay is observed with the same. */
  answer: AnswerFacts;
  /**
   * The headers to send for a request's Origin, as writeHead's flat list (name, value, name, value...): X-Request-Id
   * with an empty value to fill in, the stored ones, then what CORS grants the Origin. Made once per Origin.
   */
  headersFor: (origin: string | string[] | undefined) => readonly OutgoingHttpHeader[];
}

/** What answers a request this does not: the next layer, handed the same request and response. */
type Next = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Serves a request from the cache or hands it to `next` (Express), capturing the answer when the adapter marked it
 * replayable.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly bodies = new SharedBodies();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  /** What CORS grants a GET from each Origin: for a GET, the cors middleware's answer depends on the Origin alone. */
  private readonly corsGrants: (origin: string | string[] | undefined) => Record<string, OutgoingHttpHeader>;
  readonly stats: ResponseCacheStats = { hits: 0, misses: 0, stored: 0, entries: 0, bytes: 0, bodies: 0 };

  constructor(
    private readonly runtime: Runtime,
    /** What answers a request this does not (Express). */
    private readonly next: Next,
    options: ResponseCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    const middleware = cors({ origins: allowedOrigins(runtime.config) });
    this.corsGrants = perOrigin((origin) => corsGrant(middleware, 'GET', origin));
  }

  /** Serves a request (node:http's request listener; a property, so it can be handed on as it is). */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const next = this.next;
    if (!isCacheable(req, this.runtime.config.latencyMs)) return next(req, res);
    const token = bearerToken(req.headers.authorization);
    // Authentication runs on a hit too; an unknown token goes the slow way, which answers the documented 401.
    const auth = token === undefined ? undefined : this.runtime.authenticate(token);
    if (!auth) return next(req, res);
    // The forwarded headers are part of the key: behind a trusted proxy they change the links in the answer.
    const forwarded = `${req.headers['x-forwarded-proto'] ?? ''}\n${req.headers['x-forwarded-host'] ?? ''}`;
    const key = `${auth.world.id}\n${auth.user.id}\n${req.headers.host ?? ''}\n${forwarded}\n${req.headers.accept ?? ''}\n${req.url}`;
    const entry = this.entries.get(key);
    const { store, clock } = auth.world;
    if (entry && entry.store === store && entry.version === store.version && entry.clockOffset === clock.offset) {
      this.serve(req, res, entry);
      return;
    }
    if (entry) this.drop(key, entry);
    this.stats.misses++;
    this.capture(req, res, key, auth.world, auth.user.id);
    next(req, res);
  };

  /** Forgets every answer (tests; a world swapped under the app). */
  clear(): void {
    this.entries.clear();
    this.bodies.clear();
    this.bytes = 0;
    this.stats.entries = 0;
    this.stats.bytes = 0;
    this.stats.bodies = 0;
  }

  private serve(req: IncomingMessage, res: ServerResponse, entry: Entry): void {
    this.stats.hits++;
    // Each answer has its own id, given as Express's path gives it (src/observe/request-log.ts); the stored headers
    // never hold the id of the answer they were captured from. The line goes through the same logger with the same
    // fields.
    const id = idRequest(req);
    const arrival = arrivalOf(req);
    // One header list, handed to writeHead whole: Node then writes it without merging it into headers set earlier,
    // and walks a flat list faster than an object's keys.
    const headers = entry.headersFor(req.headers.origin).slice();
    headers[1] = id;
    res.writeHead(200, entry.statusMessage, headers);
    res.end(entry.body);
    // The journal, the coverage report and the log see a replayed answer like any other.
    observeAnswered(arrival, entry.answer, 200, this.runtime.observe);
  }

  /** Collects what the slow path writes and keeps it if the adapter marked it replayable and it was sent as a 200. */
  private capture(req: IncomingMessage, res: ServerResponse, key: string, world: World, userId: string): void {
    const { store } = world;
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    const collect = (chunk: unknown, encoding: unknown) => {
      if (overflow || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer =
        typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
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
      const answer = answerOf(req);
      if (typeof answer?.operationId !== 'string' || answer.responseBody === undefined) return;
      const replayable = req.state?.replayable;
      if (!replayable) return;
      const { version, clockOffset } = replayable;
      const auth = req.state?.caller;
      // The answer belongs to this world, this user and this exact state: a write while it was sent voids it.
      if (auth?.world !== world || auth.user.id !== userId || world.store !== store) return;
      if (store.version !== version || world.clock.offset !== clockOffset) return;
      const contentType = res.getHeader('content-type');
      if (typeof contentType !== 'string' || !contentType.startsWith('application/json')) return;
      const computed = Buffer.concat(chunks);
      const length = res.getHeader('content-length');
      if (length !== undefined && Number(length) !== computed.length) return;
      const body = this.bodies.hold(computed);
      const headers: Record<string, OutgoingHttpHeader> = {};
      for (const name of res.getHeaderNames()) headers[name] = res.getHeader(name)!;
      // The names as the slow path spelled them, so a cached answer is byte for byte the computed one.
      const raw = (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
      const spelled: Record<string, OutgoingHttpHeader> = {};
      for (const name of raw) if (!perRequest(name.toLowerCase())) spelled[name] = headers[name.toLowerCase()];
      this.keep(key, {
        store,
        version,
        clockOffset,
        statusMessage: res.statusMessage || 'OK',
        body,
        answer,
        headersFor: perOrigin((origin) => headerList({ ...spelled, ...this.corsGrants(origin) })),
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
    this.stats.bodies = this.bodies.size;
  }

  private drop(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bodies.release(entry.body);
    this.bytes -= entry.body.length;
    this.stats.entries = this.entries.size;
    this.stats.bytes = this.bytes;
    this.stats.bodies = this.bodies.size;
  }
}

/** writeHead's flat list of `headers`, after an X-Request-Id whose value each answer fills in. */
const headerList = (headers: Record<string, OutgoingHttpHeader>): readonly OutgoingHttpHeader[] => [REQUEST_ID_HEADER, '', ...Object.entries(headers).flat()];

/** Headers each answer gets for itself: its request id and what CORS grants the request's Origin. */
const perRequest = (name: string): boolean => name === 'x-request-id' || name === 'vary' || name.startsWith('access-control-');

/**
 * A read the cache may answer: a GET without a body, without Prefer (scenario knobs change the answer), and only
 * when no latency is configured (a cached answer must not be faster than the server is told to be).
 */
function isCacheable(req: IncomingMessage, latencyMs: number): boolean {
  return req.method === 'GET' && latencyMs === 0 && req.headers.prefer === undefined && sendsNoBody(req.headers);
}
