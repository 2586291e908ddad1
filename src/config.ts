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
}

export const DEFAULT_SEED = 20240901;

export const defaultConfig: Config = {
  port: 4010,
  host: '127.0.0.1',
  store: 'file',
  dataFile: 'data/sandbox.json',
  seed: DEFAULT_SEED,
  reset: false,
  bodyLimit: 1024 * 1024,
  logLevel: 'info',
};

/** The environment's part of the configuration (flags, where given, win over it). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<Config> {
  const out: Partial<Config> = {};
  if (env.PORT) out.port = Number(env.PORT);
  if (env.HOST) out.host = env.HOST;
  if (env.DATA_FILE) out.dataFile = env.DATA_FILE;
  if (env.STORE === 'memory' || env.STORE === 'file') out.store = env.STORE;
  if (env.SEED) out.seed = Number(env.SEED);
  if (env.RESET === '1' || env.RESET === 'true') out.reset = true;
  if (env.RETAILER_REDIRECT_URI) out.retailerRedirectUri = env.RETAILER_REDIRECT_URI;
  return out;
}
