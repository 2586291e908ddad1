// What startSandbox() makes of the options a test runner hands it. They come from code, often straight from the
// environment (`{ port: process.env.PORT }`), without the command line's checks: an option given as undefined takes
// its default, and a value the sandbox cannot run with is refused before anything listens or opens a file, naming
// the option, instead of starting wrong (a port 'abc' is a socket file of that name to Node) or failing later.
import { defaultConfig, LOG_LEVELS, MAX_LATENCY_MS, type Config } from './config.js';

/** Options startSandbox() cannot start with; the message names each one and the value given. */
export class StartOptionsError extends TypeError {
  override name = 'StartOptionsError';
}

/** Where startSandbox() differs from the CLI's defaults: loopback, a free port, in memory, quiet. */
const START_DEFAULTS = { host: '127.0.0.1', port: 0, store: 'memory', logLevel: 'warn' } as const satisfies Partial<Config>;

/** The configuration `overrides` ask for, or a StartOptionsError naming every option that is wrong. */
export function startConfig(overrides: Partial<Config>): Config {
  const given: Record<string, unknown> = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  // A port read straight from the environment is a string of digits, which Node's listen takes as that port.
  if (typeof given.port === 'string' && /^\s*\d+\s*$/.test(given.port)) given.port = Number(given.port);
  const config: Config = { ...defaultConfig, ...START_DEFAULTS, ...given };
  const problems = configProblems(config);
  if (problems.length > 0) throw new StartOptionsError(`startSandbox: ${problems.join('; ')}`);
  return config;
}

type NumberKey = { [K in keyof Config]-?: NonNullable<Config[K]> extends number ? K : never }[keyof Config];
/** The numeric settings besides those with a range of their own: the defaults' numbers and the optional ones. */
const OTHER_NUMBERS = [
  ...(Object.keys(defaultConfig) as (keyof Config)[]).filter((key): key is NumberKey => typeof defaultConfig[key] === 'number'),
  'workspaceCreatePerMinute',
  'adminAttemptsPerHour',
].filter((key) => key !== 'port' && key !== 'seed' && key !== 'latencyMs') as NumberKey[];

const show = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : String(value));
const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

/** What is wrong with `config`, one sentence per option. */
function configProblems(config: Config): string[] {
  const problems: string[] = [];
  const integer = (key: 'port' | 'seed' | 'latencyMs', max: number) => {
    const value: unknown = config[key];
    if (!isCount(value) || (value as number) > max) problems.push(`${key} must be an integer from 0 to ${max}, got ${show(value)}`);
  };
  integer('port', 65_535);
  integer('seed', 4_294_967_295);
  integer('latencyMs', MAX_LATENCY_MS);
  if (typeof config.host !== 'string' || config.host.trim() === '' || /\s/.test(config.host.trim()))
    problems.push(`host must be a host name or IP address, got ${show(config.host)}`);
  if (config.store !== 'file' && config.store !== 'memory') problems.push(`store must be 'file' or 'memory', got ${show(config.store)}`);
  else if (config.store === 'file' && (typeof config.dataFile !== 'string' || config.dataFile.trim() === ''))
    problems.push(`dataFile must be a file path, got ${show(config.dataFile)}`);
  if (!(LOG_LEVELS as readonly unknown[]).includes(config.logLevel))
    problems.push(`logLevel must be one of ${LOG_LEVELS.join(', ')}, got ${show(config.logLevel)}`);
  for (const key of ['reset', 'strict', 'hosted'] as const) {
    if (typeof config[key] !== 'boolean') problems.push(`${key} must be true or false, got ${show(config[key])}`);
  }
  // Every other number is a size, a count or a duration: a whole number, never negative (NaN, a string: refused).
  for (const key of OTHER_NUMBERS) {
    const value: unknown = config[key];
    if (value !== undefined && !isCount(value)) problems.push(`${key} must be a whole number, 0 or more, got ${show(value)}`);
  }
  for (const key of Object.keys(defaultConfig.multipart) as (keyof Config['multipart'])[]) {
    const value: unknown = config.multipart?.[key];
    if (!isCount(value)) problems.push(`multipart.${key} must be a whole number, 0 or more, got ${show(value)}`);
  }
  return problems;
}
