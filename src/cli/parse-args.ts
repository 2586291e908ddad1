// The CLI's argument parsing, kept pure (argv and env in, options or messages out) so every rule and every
// error message is unit-tested and main only decides what to do with the result.

/** Log levels, quietest last. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'silent'] as const;
/** One of LOG_LEVELS. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What the sandbox was asked to do on start-up. */
export interface CliOptions {
  port: number;
  host: string;
  /** Undefined: the store's own default seed. */
  seed?: number;
  /** Undefined: the store's default file (data/sandbox.json). */
  dataFile?: string;
  store: 'file' | 'memory';
  /** Reseed the data file on start, throwing away its changes. */
  reset: boolean;
  /** Added to every answer, to rehearse a slow network. */
  latencyMs: number;
  logLevel: LogLevel;
  /** Refuse (422) fields the contract does not name instead of ignoring them. */
  strict: boolean;
  help: boolean;
  version: boolean;
}

/** The outcome: options, or every problem found (each a full sentence naming the flag or variable). */
export type ParseResult = { ok: true; options: CliOptions } | { ok: false; errors: string[] };

/** Defaults where neither a flag nor the environment says otherwise. */
export const CLI_DEFAULTS = { port: 4010, host: '127.0.0.1', latencyMs: 0, logLevel: 'info' } as const;

/** Upper bound of --latency: beyond a minute a client's own timeouts are what is being tested. */
export const MAX_LATENCY_MS = 60_000;

type Env = Record<string, string | undefined>;

interface FlagSpec {
  key: 'port' | 'host' | 'seed' | 'data' | 'in-memory' | 'reset' | 'latency' | 'log-level' | 'strict' | 'help' | 'version';
  takesValue: boolean;
}

const FLAGS: Record<string, FlagSpec> = {
  '--port': { key: 'port', takesValue: true },
  '-p': { key: 'port', takesValue: true },
  '--host': { key: 'host', takesValue: true },
  '--seed': { key: 'seed', takesValue: true },
  '--data': { key: 'data', takesValue: true },
  '--in-memory': { key: 'in-memory', takesValue: false },
  '--reset': { key: 'reset', takesValue: false },
  '--latency': { key: 'latency', takesValue: true },
  '--log-level': { key: 'log-level', takesValue: true },
  '--strict': { key: 'strict', takesValue: false },
  '--help': { key: 'help', takesValue: false },
  '-h': { key: 'help', takesValue: false },
  '--version': { key: 'version', takesValue: false },
  '-v': { key: 'version', takesValue: false },
};

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length]!;
}

function suggest(flag: string): string {
  const best = Object.keys(FLAGS)
    .filter((f) => f.startsWith('--'))
    .map((f) => [f, distance(flag, f)] as const)
    .sort((a, b) => a[1] - b[1])[0];
  return best && best[1] <= 2 ? ` Did you mean ${best[0]}?` : '';
}

function integer(name: string, raw: string, min: number, max: number, what = 'an integer', errors: string[]): number | undefined {
  const value = raw.trim();
  if (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
  errors.push(`${name} must be ${what} from ${min} to ${max}, got '${raw}'`);
  return undefined;
}

function boolEnv(name: string, raw: string, errors: string[]): boolean | undefined {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(v)) return true;
  if (['', '0', 'false', 'no'].includes(v)) return false;
  errors.push(`${name} must be 1 or 0 (true or false), got '${raw}'`);
  return undefined;
}

/** Turns argv (without node and the script) and the environment into options; flags win over environment. */
export function parseArgs(argv: readonly string[], env: Env = {}): ParseResult {
  const errors: string[] = [];
  const given = new Map<FlagSpec['key'], { flag: string; value: string }>();

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const spec = FLAGS[flag];
    if (!spec) {
      errors.push(arg.startsWith('-') ? `Unknown option '${flag}'.${suggest(flag)}` : `Unexpected argument '${arg}'`);
      continue;
    }
    let value = '';
    if (spec.takesValue) {
      if (eq > 0) value = arg.slice(eq + 1);
      else if (i + 1 < argv.length && !FLAGS[argv[i + 1]!] && !argv[i + 1]!.startsWith('--')) value = argv[++i]!;
      else {
        errors.push(`${flag} needs a value`);
        continue;
      }
    } else if (eq > 0) {
      errors.push(`${flag} takes no value, got '${arg.slice(eq + 1)}'`);
      continue;
    }
    if (given.has(spec.key)) errors.push(`${flag} was given more than once`);
    else given.set(spec.key, { flag, value });
  }

  // --help and --version answer even when the rest of the line is wrong: that is when people reach for them.
  if (given.has('help') || given.has('version')) {
    return { ok: true, options: { ...defaults(), help: given.has('help'), version: given.has('version') } };
  }

  // A flag's own name goes into its message; an environment variable's name into its.
  const source = (key: FlagSpec['key'], envName: string): [string, string] | undefined => {
    const flag = given.get(key);
    if (flag) return [flag.flag, flag.value];
    const fromEnv = env[envName];
    return fromEnv === undefined || fromEnv === '' ? undefined : [envName, fromEnv];
  };

  const options = defaults();

  const port = source('port', 'PORT');
  if (port) options.port = integer(port[0], port[1], 0, 65535, 'an integer', errors) ?? options.port;

  const host = source('host', 'HOST');
  if (host) {
    if (host[1].trim() === '' || /\s/.test(host[1].trim())) errors.push(`${host[0]} must be a host name or IP address, got '${host[1]}'`);
    else options.host = host[1].trim();
  }

  const seed = source('seed', 'SEED');
  if (seed) options.seed = integer(seed[0], seed[1], 0, 4_294_967_295, 'an integer', errors);

  const data = source('data', 'DATA_FILE');
  if (data) {
    if (data[1].trim() === '') errors.push(`${data[0]} must be a file path`);
    else options.dataFile = data[1];
  }

  if (given.has('in-memory')) {
    options.store = 'memory';
    if (given.has('data')) errors.push('--data and --in-memory cannot be combined: --in-memory keeps nothing on disk');
  } else if (!given.has('data') && env.STORE !== undefined && env.STORE !== '') {
    const store = env.STORE.trim().toLowerCase();
    if (store === 'memory' || store === 'file') options.store = store;
    else errors.push(`STORE must be 'memory' or 'file', got '${env.STORE}'`);
  }

  if (given.has('reset')) options.reset = true;
  else if (env.RESET !== undefined) options.reset = boolEnv('RESET', env.RESET, errors) ?? false;

  if (given.has('strict')) options.strict = true;
  else if (env.STRICT !== undefined) options.strict = boolEnv('STRICT', env.STRICT, errors) ?? false;

  const latency = source('latency', 'LATENCY_MS');
  if (latency)
    options.latencyMs =
      integer(latency[0], latency[1], 0, MAX_LATENCY_MS, 'an integer number of milliseconds', errors) ?? options.latencyMs;

  const level = source('log-level', 'LOG_LEVEL');
  if (level) {
    const v = level[1].trim().toLowerCase();
    if ((LOG_LEVELS as readonly string[]).includes(v)) options.logLevel = v as LogLevel;
    else errors.push(`${level[0]} must be one of ${LOG_LEVELS.join(', ')}, got '${level[1]}'`);
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, options };
}

function defaults(): CliOptions {
  return { ...CLI_DEFAULTS, store: 'file', reset: false, strict: false, help: false, version: false };
}
