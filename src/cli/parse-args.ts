// The CLI's argument parsing, kept pure (argv and env in, options or messages out) so every rule and every
// error message is unit-tested and main only decides what to do with the result. node:util parseArgs splits the
// line into tokens; the rules and messages are the sandbox's own.
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';
import { boolEnv, LOG_LEVELS, MAX_LATENCY_MS, parsePublicUrl, type LogLevel } from '../config.js';

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
  /** A workspace bundle file to load into the default world at start (in memory). */
  load?: string;
  /** The origin uploaded files' URLs point at (--uploads-origin, UPLOADS_ORIGIN), checked like PUBLIC_URL. */
  uploadsOrigin?: string;
  help: boolean;
  version: boolean;
}

/** The outcome: options, or every problem found (each a full sentence naming the flag or variable). */
export type ParseResult = { ok: true; options: CliOptions } | { ok: false; errors: string[] };

/** Defaults where neither a flag nor the environment says otherwise. */
export const CLI_DEFAULTS = { port: 4010, host: '127.0.0.1', latencyMs: 0, logLevel: 'info' } as const;

type Env = Record<string, string | undefined>;

/**
 * Every flag, for node:util parseArgs: a string flag takes a value, a boolean flag none. A new flag is one line
 * here, its reading below and its line in help-text.ts.
 */
const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  seed: { type: 'string' },
  data: { type: 'string' },
  'in-memory': { type: 'boolean' },
  reset: { type: 'boolean' },
  latency: { type: 'string' },
  'log-level': { type: 'string' },
  strict: { type: 'boolean' },
  load: { type: 'string' },
  'uploads-origin': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type FlagKey = keyof typeof OPTIONS;

const isFlag = (name: string): name is FlagKey => Object.hasOwn(OPTIONS, name);
/** Every spelling of a flag as typed: --port, -p. */
const SPELLINGS = new Set(Object.entries(OPTIONS).flatMap(([name, o]) => [`--${name}`, ...('short' in o ? [`-${o.short}`] : [])]));

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
  const best = Object.keys(OPTIONS)
    .map((name) => [`--${name}`, distance(flag, `--${name}`)] as const)
    .sort((a, b) => a[1] - b[1])[0];
  return best && best[1] <= 2 ? ` Did you mean ${best[0]}?` : '';
}

function integer(name: string, raw: string, min: number, max: number, what = 'an integer', errors: string[]): number | undefined {
  const value = raw.trim();
  if (/^\d+$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
  errors.push(`${name} must be ${what} from ${min} to ${max}, got '${raw}'`);
  return undefined;
}

/** Turns argv (without node and the script) and the environment into options; flags win over environment. */
export function parseArgs(argv: readonly string[], env: Env = {}): ParseResult {
  const errors: string[] = [];
  const given = new Map<FlagKey, { flag: string; value: string }>();

  // parseArgs in its lenient mode hands back every token, so each problem gets the sandbox's own sentence and all
  // of them are reported at once, instead of the first one thrown.
  const read = (args: readonly string[]): void => {
    const { tokens } = nodeParseArgs({ args: [...args], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
    const seen = new Set<number>();
    for (const token of tokens) {
      if (token.kind === 'positional') {
        errors.push(`Unexpected argument '${token.value}'`);
        continue;
      }
      const arg = args[token.index]!;
      if (token.kind === 'option-terminator' || !isFlag(token.name) || (!arg.startsWith('--') && arg !== token.rawName)) {
        // An unknown flag, or short flags run together or given a value with '=' (-pv, -p=1), which only --flags take.
        if (seen.has(token.index)) continue;
        seen.add(token.index);
        const flag = token.kind === 'option' && arg.startsWith('--') ? token.rawName : arg;
        errors.push(`Unknown option '${flag}'.${suggest(flag)}`);
        continue;
      }
      const flag = token.rawName;
      let value = '';
      if (OPTIONS[token.name].type === 'string') {
        // A following flag is not a value: '--port --host x' is a --port without one, then --host.
        if (token.value === undefined || (!token.inlineValue && (SPELLINGS.has(token.value) || token.value.startsWith('--')))) {
          errors.push(`${flag} needs a value`);
          if (token.value !== undefined) return read(args.slice(token.index + 1));
          continue;
        }
        value = token.value;
      } else if (token.inlineValue) {
        errors.push(`${flag} takes no value, got '${token.value}'`);
        continue;
      }
      if (given.has(token.name)) errors.push(`${flag} was given more than once`);
      else given.set(token.name, { flag, value });
    }
  };
  read(argv);

  // --help and --version answer even when the rest of the line is wrong: that is when people reach for them.
  if (given.has('help') || given.has('version')) {
    return { ok: true, options: { ...defaults(), help: given.has('help'), version: given.has('version') } };
  }

  // A flag's own name goes into its message; an environment variable's name into its.
  const source = (key: FlagKey, envName: string): [string, string] | undefined => {
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
    // 'data/' names a folder: the store would become a file called 'data' instead of a file inside it.
    else if (/[\\/]$/.test(data[1].trim())) errors.push(`${data[0]} must be a file path, not a folder, got '${data[1]}' (e.g. ${data[1].trim()}sandbox.json)`);
    // Spaces around a path are a paste's or a .env file's, never meant: 'data.json ' would be a new, empty store.
    else options.dataFile = data[1].trim();
  }

  if (given.has('in-memory')) {
    options.store = 'memory';
    if (given.has('data')) errors.push('--data and --in-memory cannot be combined: --in-memory keeps nothing on disk');
  } else if (!given.has('data') && env.STORE !== undefined && env.STORE !== '') {
    const store = env.STORE.trim().toLowerCase();
    if (store === 'memory' || store === 'file') options.store = store;
    else errors.push(`STORE must be 'memory' or 'file', got '${env.STORE}'`);
  }

  const load = given.get('load');
  if (load) {
    if (load.value.trim() === '') errors.push('--load must be a file path');
    else options.load = load.value.trim();
    // The loaded world is kept in memory: a data file would be neither read nor written.
    if (given.has('data')) errors.push('--load and --data cannot be combined: --load keeps the loaded world in memory');
    if (given.has('reset')) errors.push('--load and --reset cannot be combined: --load starts from the bundle');
    options.store = 'memory';
  }

  const uploadsOrigin = source('uploads-origin', 'UPLOADS_ORIGIN');
  if (uploadsOrigin) {
    const parsed = parsePublicUrl(uploadsOrigin[1].trim(), uploadsOrigin[0]);
    if ('origin' in parsed) options.uploadsOrigin = parsed.origin;
    else errors.push(parsed.problem);
  }

  if (given.has('reset')) options.reset = true;
  else if (env.RESET !== undefined) options.reset = boolEnv('RESET', env.RESET, errors) ?? false;

  if (given.has('strict')) options.strict = true;
  else if (env.STRICT !== undefined) options.strict = boolEnv('STRICT', env.STRICT, errors) ?? false;

  const latency = source('latency', 'LATENCY_MS');
  if (latency) options.latencyMs = integer(latency[0], latency[1], 0, MAX_LATENCY_MS, 'an integer number of milliseconds', errors) ?? options.latencyMs;

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
