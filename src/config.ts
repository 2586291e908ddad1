import { weakSecretProblem } from './secret-strength.js';

/** Log levels, quietest last. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'silent'] as const;
/** One of LOG_LEVELS. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Upper bound of --latency: beyond a minute a client's own timeouts are what is being tested. */
export const MAX_LATENCY_MS = 60_000;

/** The limits of a multipart body (product image uploads). */
export interface MultipartLimits {
  /** Text fields (besides the file). */
  maxFields: number;
  /** Bytes of one text field's value. */
  maxFieldBytes: number;
  /** Bytes of the whole body as received, boundaries and headers included. */
  maxTotalBytes: number;
}

/** Everything the sandbox can be told at start-up. main.ts builds it from flags and environment; tests build it directly. */
export interface Config {
  port: number;
  host: string;
  /** 'file' keeps the world in `dataFile`; 'memory' forgets it on exit. */
  store: 'file' | 'memory';
  dataFile: string;
  seed: number;
  /** Reseed on start even when the data file exists. */
  reset: boolean;
  /** Largest accepted JSON request body, in bytes after decompression (BODY_LIMIT_BYTES). */
  bodyLimit: number;
  /** The limits of a multipart body (MULTIPART_MAX_FIELDS, MULTIPART_MAX_FIELD_BYTES, MULTIPART_MAX_TOTAL_BYTES). */
  multipart: MultipartLimits;
  /** Largest workspace bundle, exported or loaded, in bytes of JSON after decompression (BUNDLE_MAX_BYTES). */
  bundleMaxBytes: number;
  /**
   * Bundle loads one process takes at once (BUNDLE_LOADS_IN_FLIGHT); one more answers 503. Of those taken, loads and
   * exports are parsed, checked and built two at a time (src/http/heavy-lanes.ts), the others waiting their turn.
   */
  bundleLoadsInFlight: number;
  /** Exports one process takes at once (BUNDLE_EXPORTS_IN_FLIGHT), and one per workspace; one more answers 503. */
  bundleExportsInFlight: number;
  /** Where the retailer's consent page sends the browser after Approve; default: the sandbox's own callback. */
  retailerRedirectUri?: string;
  logLevel: LogLevel;
  /** Added to every answer (--latency), to rehearse a slow network. */
  latencyMs: number;
  /** Upper bound of `Prefer: delay`, in milliseconds. */
  maxDelayMs: number;
  /**
   * Browser origins allowed to call the sandbox: '*' (any, no credentials) or a list (CORS_ORIGINS). Unset, '*'
   * locally and the PUBLIC_URL origin alone in hosted mode, where a list also gets the PUBLIC_URL origin
   * (allowedOrigins, src/http/cors.ts).
   */
  corsOrigins?: '*' | string[];
  /** A workspace nobody used for this long is deleted (WORKSPACE_TTL_SECONDS). */
  workspaceIdleTtlMs: number;
  /** At most this many workspaces live at once; creating one more answers 429. */
  maxWorkspaces: number;
  /**
   * Creating a workspace answers 503 (Retry-After) once the process is past this percentage of its memory budget:
   * heap and Buffers (uploads) against the old space's limit, RSS against a container's memory limit.
   */
  heapBudgetPercent: number;
  /** Records a workspace may add beyond its seeded ones (WORKSPACE_MAX_RECORDS); one more answers 422. */
  workspaceMaxRecords: number;
  /** Bytes a workspace's uploaded files may hold together (WORKSPACE_MAX_UPLOAD_MB); past it an upload answers 413. */
  workspaceMaxUploadBytes: number;
  /** Workspaces one client may create per minute (WORKSPACE_CREATE_PER_MINUTE), for hosted mode's limit. */
  workspaceCreatePerMinute?: number;
  /** How many requests each workspace's journal ring keeps (the oldest is dropped first). */
  journalSize: number;
  /** Bytes of JSON a journaled request or response body is cut to (JOURNAL_BODY_BYTES). */
  journalBodyBytes: number;
  /** Bytes one workspace's journal ring holds at most (JOURNAL_WORKSPACE_BYTES). */
  journalWorkspaceBytes: number;
  /** Bytes all journal rings together hold at most (JOURNAL_TOTAL_BYTES). */
  journalTotalBytes: number;
  /** On SIGTERM or SIGINT, how long requests in flight may take to finish before they are dropped (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  /** Refuse (422) query parameters and body fields the contract does not name, instead of ignoring them (--strict, STRICT=1). */
  strict: boolean;
  /**
   * Express's `trust proxy` (TRUST_PROXY): false ignores X-Forwarded-*; true, a hop count or proxy addresses make
   * links and `meta.path` follow X-Forwarded-Proto and X-Forwarded-Host.
   */
  trustProxy: boolean | number | string;
  /**
   * This replica's name among several behind nginx (REPLICA_ID, `[a-z0-9]{1,8}`): it prefixes the ids of the
   * workspaces it creates (`<replica>-<hex>`), so the proxy can route every request of a workspace here.
   */
  replicaId?: string;
  /**
   * Hosted mode (HOSTED=1): the sandbox faces the public. Every control-plane call but health and workspace creation
   * needs a token, the default world's demo tokens are refused, and `adminToken` may act on any world.
   */
  hosted: boolean;
  /** The admin token of hosted mode (SANDBOX_ADMIN_TOKEN, at least 128 bits); hosted mode refuses to start without it. */
  adminToken?: string;
  /**
   * The origin absolute URLs point at (PUBLIC_URL, e.g. https://sandbox.example.com): links, the consent URL and its
   * redirect, image URLs, the served contract's server. Hosted mode needs it (a request's Host is the client's to
   * write); unset locally, each request's own origin is used.
   */
  publicUrl?: string;
  /**
   * The origin uploaded files' URLs point at (UPLOADS_ORIGIN, --uploads-origin, e.g. https://uploads.example.com):
   * another site than the docs page's, routed to this sandbox, so a served file shares no origin with the page that
   * keeps a visitor's token. Unset, they point at PUBLIC_URL or the request's own origin.
   */
  uploadsOrigin?: string;
  /** Wrong control-plane tokens one client address may send per hour in hosted mode before 429 (ADMIN_ATTEMPTS_PER_HOUR, default 20). */
  adminAttemptsPerHour?: number;
}

export const DEFAULT_SEED = 20240901;

/** The request journal's bounds (src/observe/request-journal.ts) unless JOURNAL_* say otherwise. */
export const JOURNAL_DEFAULTS = {
  /** Entries one workspace's ring keeps. */
  capacity: 1000,
  /** Bytes of JSON a kept request or response body is cut to (the entry says `body_truncated`). */
  maxBodyBytes: 16 * 1024,
  /** Bytes one workspace's ring holds at most. */
  maxWorkspaceBytes: 4 * 1024 * 1024,
  /** Bytes all rings together hold at most; past it the ring holding most loses its oldest entries first. */
  maxTotalBytes: 64 * 1024 * 1024,
} as const;

/**
 * Workspaces kept at once unless MAX_WORKSPACES says otherwise. An untouched one costs a few KiB of heap (`npm run
 * bench` measures it against a 64 KiB target): 10,000 fit far below the 1.5 GiB target, and the memory budget answers 503 before changed ones could exhaust it.
 */
export const DEFAULT_MAX_WORKSPACES = 10_000;

/**
 * The share of the memory budget past which work that takes memory is refused (HEAP_BUDGET_PERCENT), below the 80 %
 * of the old space at which V8 stops a process whose mark-compacts free little, four in a row ("Ineffective
 * mark-compacts near heap limit"): a flood of writes keeps V8 collecting, so a budget above that line may never be
 * reached before V8 stops the process (and every workspace in it).
 */
export const DEFAULT_HEAP_BUDGET_PERCENT = 75;

export const defaultConfig: Config = {
  port: 4010,
  host: '127.0.0.1',
  store: 'file',
  dataFile: 'data/sandbox.json',
  seed: DEFAULT_SEED,
  reset: false,
  bodyLimit: 1024 * 1024,
  // An image upload takes a file (5 MiB at most) and no text field the contract names: a few unknown ones are
  // tolerated, none large.
  multipart: { maxFields: 16, maxFieldBytes: 64 * 1024, maxTotalBytes: 6 * 1024 * 1024 },
  // A CI run's world with its uploads and journal: 10,000 records take a few MiB.
  bundleMaxBytes: 32 * 1024 * 1024,
  // Each load or export holds memory a few times its size and the event loop in turns: a few at once, never a flood.
  bundleLoadsInFlight: 2,
  bundleExportsInFlight: 2,
  logLevel: 'info',
  latencyMs: 0,
  maxDelayMs: 10_000,
  workspaceIdleTtlMs: 60 * 60 * 1000,
  maxWorkspaces: DEFAULT_MAX_WORKSPACES,
  heapBudgetPercent: DEFAULT_HEAP_BUDGET_PERCENT,
  // Far above what a test suite adds or uploads; a visitor filling memory through one workspace meets them.
  workspaceMaxRecords: 20_000,
  workspaceMaxUploadBytes: 100 * 2 ** 20,
  journalSize: JOURNAL_DEFAULTS.capacity,
  journalBodyBytes: JOURNAL_DEFAULTS.maxBodyBytes,
  journalWorkspaceBytes: JOURNAL_DEFAULTS.maxWorkspaceBytes,
  journalTotalBytes: JOURNAL_DEFAULTS.maxTotalBytes,
  shutdownGraceMs: 10_000,
  strict: false,
  trustProxy: false,
  hosted: false,
};

/** BUNDLE_MAX_BYTES in hosted mode unless set: the shipped nginx's body limit (deploy/nginx). */
export const HOSTED_BUNDLE_MAX_BYTES = 8 * 1024 * 1024;

/** A share of the bundle's bytes, in whole KiB. */
const hostedShare = (bundleMaxBytes: number, share: number): number => Math.floor((bundleMaxBytes * share) / 1024) * 1024;

/** Workspaces one client address may create per minute in hosted mode unless WORKSPACE_CREATE_PER_MINUTE says otherwise. */
export const HOSTED_CREATE_PER_MINUTE = 10;

/**
 * What the command line decided (src/cli/parse-args.ts's options fit it): the settings a flag can give, besides those
 * only the environment carries.
 */
export type StartOptions = Pick<Config, 'port' | 'host' | 'store' | 'reset' | 'latencyMs' | 'logLevel' | 'strict'> & {
  seed?: number;
  dataFile?: string;
  /** --uploads-origin or UPLOADS_ORIGIN as an origin: parse-args.ts checks it, naming the flag or the variable given. */
  uploadsOrigin?: string;
};

/**
 * The configuration from parsed CLI options (which already folded in PORT, HOST, SEED, DATA_FILE, STORE, RESET,
 * LATENCY_MS, LOG_LEVEL and STRICT) plus the settings only the environment carries. Bad values are reported, never
 * turned into NaN: the caller prints them and exits.
 */
export function configFromOptions(options: StartOptions, env: NodeJS.ProcessEnv = process.env): { config: Config; errors: string[] } {
  const errors: string[] = [];
  const config: Config = {
    ...defaultConfig,
    port: options.port,
    host: options.host,
    store: options.store,
    reset: options.reset,
    latencyMs: options.latencyMs,
    logLevel: options.logLevel,
    strict: options.strict,
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.dataFile !== undefined && { dataFile: options.dataFile }),
  };
  if (options.uploadsOrigin !== undefined) config.uploadsOrigin = options.uploadsOrigin;
  if (env.RETAILER_REDIRECT_URI) config.retailerRedirectUri = env.RETAILER_REDIRECT_URI;
  if (env.CORS_ORIGINS) config.corsOrigins = parseCorsOrigins(env.CORS_ORIGINS);
  const ttl = positiveInteger('WORKSPACE_TTL_SECONDS', env.WORKSPACE_TTL_SECONDS, 1, 7 * 24 * 3600, errors);
  if (ttl !== undefined) config.workspaceIdleTtlMs = ttl * 1000;
  const max = positiveInteger('MAX_WORKSPACES', env.MAX_WORKSPACES, 1, 100_000, errors);
  if (max !== undefined) config.maxWorkspaces = max;
  const perMinute = positiveInteger('WORKSPACE_CREATE_PER_MINUTE', env.WORKSPACE_CREATE_PER_MINUTE, 1, 100_000, errors);
  if (perMinute !== undefined) config.workspaceCreatePerMinute = perMinute;
  const adminAttempts = positiveInteger('ADMIN_ATTEMPTS_PER_HOUR', env.ADMIN_ATTEMPTS_PER_HOUR, 1, 100_000, errors);
  if (adminAttempts !== undefined) config.adminAttemptsPerHour = adminAttempts;
  const budget = positiveInteger('HEAP_BUDGET_PERCENT', env.HEAP_BUDGET_PERCENT, 1, 95, errors);
  if (budget !== undefined) config.heapBudgetPercent = budget;
  const records = positiveInteger('WORKSPACE_MAX_RECORDS', env.WORKSPACE_MAX_RECORDS, 1, 10_000_000, errors);
  if (records !== undefined) config.workspaceMaxRecords = records;
  const uploadMiB = positiveInteger('WORKSPACE_MAX_UPLOAD_MB', env.WORKSPACE_MAX_UPLOAD_MB, 1, 100_000, errors);
  if (uploadMiB !== undefined) config.workspaceMaxUploadBytes = uploadMiB * 2 ** 20;
  const journal = positiveInteger('JOURNAL_SIZE', env.JOURNAL_SIZE, 1, 100_000, errors);
  if (journal !== undefined) config.journalSize = journal;
  const bodyLimit = positiveInteger('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES, 1024, 64 * 1024 * 1024, errors);
  if (bodyLimit !== undefined) config.bodyLimit = bodyLimit;
  const bundleMax = positiveInteger('BUNDLE_MAX_BYTES', env.BUNDLE_MAX_BYTES, 1024 * 1024, 1024 ** 3, errors);
  if (bundleMax !== undefined) config.bundleMaxBytes = bundleMax;
  const loads = positiveInteger('BUNDLE_LOADS_IN_FLIGHT', env.BUNDLE_LOADS_IN_FLIGHT, 1, 64, errors);
  if (loads !== undefined) config.bundleLoadsInFlight = loads;
  const exports = positiveInteger('BUNDLE_EXPORTS_IN_FLIGHT', env.BUNDLE_EXPORTS_IN_FLIGHT, 1, 64, errors);
  if (exports !== undefined) config.bundleExportsInFlight = exports;
  const fields = positiveInteger('MULTIPART_MAX_FIELDS', env.MULTIPART_MAX_FIELDS, 1, 1000, errors);
  const fieldBytes = positiveInteger('MULTIPART_MAX_FIELD_BYTES', env.MULTIPART_MAX_FIELD_BYTES, 1, 16 * 1024 * 1024, errors);
  const totalBytes = positiveInteger('MULTIPART_MAX_TOTAL_BYTES', env.MULTIPART_MAX_TOTAL_BYTES, 1024, 1024 ** 3, errors);
  config.multipart = {
    maxFields: fields ?? config.multipart.maxFields,
    maxFieldBytes: fieldBytes ?? config.multipart.maxFieldBytes,
    maxTotalBytes: totalBytes ?? config.multipart.maxTotalBytes,
  };
  const journalBody = positiveInteger('JOURNAL_BODY_BYTES', env.JOURNAL_BODY_BYTES, 256, 16 * 1024 * 1024, errors);
  if (journalBody !== undefined) config.journalBodyBytes = journalBody;
  const journalWorkspace = positiveInteger('JOURNAL_WORKSPACE_BYTES', env.JOURNAL_WORKSPACE_BYTES, 4096, 1024 ** 3, errors);
  if (journalWorkspace !== undefined) config.journalWorkspaceBytes = journalWorkspace;
  const journalTotal = positiveInteger('JOURNAL_TOTAL_BYTES', env.JOURNAL_TOTAL_BYTES, 4096, 16 * 1024 ** 3, errors);
  if (journalTotal !== undefined) config.journalTotalBytes = journalTotal;
  const grace = positiveInteger('SHUTDOWN_GRACE_SECONDS', env.SHUTDOWN_GRACE_SECONDS, 0, 600, errors);
  if (grace !== undefined) config.shutdownGraceMs = grace * 1000;
  const replica = env.REPLICA_ID?.trim();
  if (replica !== undefined && replica !== '') {
    if (REPLICA_ID.test(replica)) config.replicaId = replica;
    else errors.push(`REPLICA_ID must be 1 to 8 lowercase letters or digits, got '${env.REPLICA_ID}'`);
  }
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, errors);
  if (trustProxy !== undefined) config.trustProxy = trustProxy;
  const hosted = env.HOSTED !== undefined && boolEnv('HOSTED', env.HOSTED, errors);
  const publicUrl = env.PUBLIC_URL?.trim();
  if (publicUrl) {
    const parsed = parsePublicUrl(publicUrl);
    if ('origin' in parsed) config.publicUrl = parsed.origin;
    else errors.push(parsed.problem);
  }
  if (hosted) {
    config.hosted = true;
    const adminToken = env.SANDBOX_ADMIN_TOKEN?.trim();
    const weak = adminToken ? weakSecretProblem('SANDBOX_ADMIN_TOKEN', adminToken) : undefined;
    if (!adminToken) errors.push('HOSTED=1 needs SANDBOX_ADMIN_TOKEN=<secret>: hosted mode refuses to start without an admin token');
    else if (weak) errors.push(weak);
    else config.adminToken = adminToken;
    if (!publicUrl)
      errors.push(
        "HOSTED=1 needs PUBLIC_URL=<origin visitors use, e.g. https://sandbox.example.com>: hosted mode builds links from it, never from a request's Host",
      );
    config.workspaceCreatePerMinute ??= HOSTED_CREATE_PER_MINUTE;
    // A public sandbox sits behind an edge that caps bodies (the shipped nginx: 8 MiB); a bundle past it could not
    // be loaded there, and each one a process reads costs memory a few times its size.
    if (bundleMax === undefined) config.bundleMaxBytes = HOSTED_BUNDLE_MAX_BYTES;
    // A full workspace can always export: its quotas, unless set, take shares of the bundle (uploads travel in
    // base64, 4/3 of their bytes: half of the bundle's bytes in uploads fill two thirds of it, the journal an eighth).
    if (uploadMiB === undefined) config.workspaceMaxUploadBytes = hostedShare(config.bundleMaxBytes, 1 / 2);
    if (journalWorkspace === undefined) config.journalWorkspaceBytes = hostedShare(config.bundleMaxBytes, 1 / 8);
  }
  return { config, errors };
}

/** A replica's name: what nginx's routing regex (deploy/nginx) reads back out of a workspace id. */
export const REPLICA_ID = /^[a-z0-9]{1,8}$/;

// Express's names for address ranges, or IPv4/IPv6 addresses and subnets.
const PROXY_ADDRESS = /^(loopback|linklocal|uniquelocal|[0-9A-Fa-f:.]+(\/\d{1,3})?)$/;

/** TRUST_PROXY in the forms Express's `trust proxy` takes: true/false, a hop count, or a comma list of addresses. */
function parseTrustProxy(raw: string | undefined, errors: string[]): boolean | number | string | undefined {
  const value = raw?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (/^\d{1,3}$/.test(value)) return Number(value);
  const list = value.split(',').map((part) => part.trim());
  if (list.every((part) => PROXY_ADDRESS.test(part))) return list.join(',');
  errors.push(`TRUST_PROXY must be true, false, a hop count or a comma list of proxy addresses, got '${raw}'`);
  return undefined;
}

function positiveInteger(name: string, raw: string | undefined, min: number, max: number, errors: string[]): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = raw.trim();
  if (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
  errors.push(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  return undefined;
}

/** A 1/0 (true/false, yes/no) environment switch; a bad value is reported and answers undefined. */
export function boolEnv(name: string, raw: string, errors: string[]): boolean | undefined {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(v)) return true;
  if (['', '0', 'false', 'no'].includes(v)) return false;
  errors.push(`${name} must be 1 or 0 (true or false), got '${raw}'`);
  return undefined;
}

/** Parses a CORS_ORIGINS-style setting ('*' or a comma-separated list) into CorsOptions.origins. */
export function parseCorsOrigins(value: string | undefined): '*' | string[] {
  const trimmed = value?.trim();
  if (!trimmed || trimmed === '*') return '*';
  return trimmed
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

/** PUBLIC_URL (or another setting `name`, UPLOADS_ORIGIN) as an origin (`https://sandbox.example.com`), or why it is not one. */
export function parsePublicUrl(raw: string, name = 'PUBLIC_URL'): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `${name} must be an absolute http(s) URL such as https://sandbox.example.com, got '${raw}'` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${name} must use http or https, got '${raw}'` };
  // Links append the request's path to it: a path, query or fragment here would be doubled or lost.
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    return { problem: `${name} must be an origin only (scheme, host and port, no path), got '${raw}'` };
  }
  return { origin: url.origin };
}
