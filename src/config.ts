import { boolEnv, type CliOptions } from './cli/parse-args.js';
import { parseCorsOrigins } from './http/cors.js';

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
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Where the retailer's consent page sends the browser after Approve; default: the sandbox's own callback. */
  retailerRedirectUri?: string;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  /** Added to every answer (--latency), to rehearse a slow network. */
  latencyMs: number;
  /** Upper bound of `Prefer: delay`, in milliseconds. */
  maxDelayMs: number;
  /** Browser origins allowed to call the sandbox: '*' (any, no credentials) or a list (CORS_ORIGINS). */
  corsOrigins: '*' | string[];
  /** A workspace nobody used for this long is deleted (WORKSPACE_TTL_SECONDS). */
  workspaceIdleTtlMs: number;
  /** At most this many workspaces live at once; creating one more answers 429. */
  maxWorkspaces: number;
  /**
   * Creating a workspace answers 503 (Retry-After) once the process is past this percentage of its memory budget:
   * heap and Buffers (uploads) against the old space's limit, RSS against a container's memory limit.
   */
  heapBudgetPercent: number;
  /** Workspaces one client may create per minute (WORKSPACE_CREATE_PER_MINUTE), for hosted mode's limit. */
  workspaceCreatePerMinute?: number;
  /** How many requests the journal keeps (the oldest is dropped first). */
  journalSize: number;
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
  /** The admin token of hosted mode (SANDBOX_ADMIN_TOKEN); hosted mode refuses to start without it. */
  adminToken?: string;
}

export const DEFAULT_SEED = 20240901;

/**
 * Workspaces kept at once unless MAX_WORKSPACES says otherwise. An untouched one costs a few KiB of heap (`npm run
 * bench` measures it against a 64 KiB target): 10,000 fit far below the 1.5 GiB target, and the memory budget answers 503 before changed ones could exhaust it.
 */
export const DEFAULT_MAX_WORKSPACES = 10_000;

export const defaultConfig: Config = {
  port: 4010,
  host: '127.0.0.1',
  store: 'file',
  dataFile: 'data/sandbox.json',
  seed: DEFAULT_SEED,
  reset: false,
  bodyLimit: 1024 * 1024,
  logLevel: 'info',
  latencyMs: 0,
  maxDelayMs: 10_000,
  corsOrigins: '*',
  workspaceIdleTtlMs: 60 * 60 * 1000,
  maxWorkspaces: DEFAULT_MAX_WORKSPACES,
  heapBudgetPercent: 85,
  journalSize: 1000,
  shutdownGraceMs: 10_000,
  strict: false,
  trustProxy: false,
  hosted: false,
};

/** Workspaces one client address may create per minute in hosted mode unless WORKSPACE_CREATE_PER_MINUTE says otherwise. */
export const HOSTED_CREATE_PER_MINUTE = 10;

/**
 * The configuration from parsed CLI options (which already folded in PORT, HOST, SEED, DATA_FILE, STORE, RESET,
 * LATENCY_MS, LOG_LEVEL and STRICT) plus the settings only the environment carries. Bad values are reported, never
 * turned into NaN: the caller prints them and exits.
 */
export function configFromOptions(options: CliOptions, env: NodeJS.ProcessEnv = process.env): { config: Config; errors: string[] } {
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
  if (env.RETAILER_REDIRECT_URI) config.retailerRedirectUri = env.RETAILER_REDIRECT_URI;
  if (env.CORS_ORIGINS) config.corsOrigins = parseCorsOrigins(env.CORS_ORIGINS);
  const ttl = positiveInteger('WORKSPACE_TTL_SECONDS', env.WORKSPACE_TTL_SECONDS, 1, 7 * 24 * 3600, errors);
  if (ttl !== undefined) config.workspaceIdleTtlMs = ttl * 1000;
  const max = positiveInteger('MAX_WORKSPACES', env.MAX_WORKSPACES, 1, 100_000, errors);
  if (max !== undefined) config.maxWorkspaces = max;
  const perMinute = positiveInteger('WORKSPACE_CREATE_PER_MINUTE', env.WORKSPACE_CREATE_PER_MINUTE, 1, 100_000, errors);
  if (perMinute !== undefined) config.workspaceCreatePerMinute = perMinute;
  const budget = positiveInteger('HEAP_BUDGET_PERCENT', env.HEAP_BUDGET_PERCENT, 1, 95, errors);
  if (budget !== undefined) config.heapBudgetPercent = budget;
  const journal = positiveInteger('JOURNAL_SIZE', env.JOURNAL_SIZE, 1, 100_000, errors);
  if (journal !== undefined) config.journalSize = journal;
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
  if (hosted) {
    config.hosted = true;
    const adminToken = env.SANDBOX_ADMIN_TOKEN?.trim();
    if (adminToken) config.adminToken = adminToken;
    else errors.push('HOSTED=1 needs SANDBOX_ADMIN_TOKEN=<secret>: hosted mode refuses to start without an admin token');
    config.workspaceCreatePerMinute ??= HOSTED_CREATE_PER_MINUTE;
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
