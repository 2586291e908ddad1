// The arguments of the commands that talk to a running sandbox (`coverage`, `export`), kept pure like parse-args.ts:
// argv and environment in, options or every problem found (each a sentence naming the flag) out.
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';
import { CLI_DEFAULTS } from './parse-args.js';

/** The client commands, by the word that follows the bin's name. */
export const CLIENT_COMMANDS = ['coverage', 'export', 'wait'] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];
export const isClientCommand = (word: string | undefined): word is ClientCommand => (CLIENT_COMMANDS as readonly string[]).includes(word ?? '');

/** Forms of the coverage report (GET /_sandbox/coverage?format=). */
export const COVERAGE_FORMATS = ['markdown', 'junit', 'junit-gate', 'json'] as const;
export type CoverageFormat = (typeof COVERAGE_FORMATS)[number];

/** Where a client command finds the sandbox, when neither --url nor SANDBOX_URL says: where it listens by default. */
export const DEFAULT_URL = `http://${CLI_DEFAULTS.host}:${CLI_DEFAULTS.port}`;

/** What one client command was asked to do. */
export interface ClientOptions {
  command: ClientCommand;
  /** The sandbox's origin (and any path prefix a proxy puts before it), without a trailing slash. */
  url: string;
  /** A workspace token or the admin token; none for a local sandbox's default world. */
  token?: string;
  /** The workspace named by --workspace, else the one a `ws_<id>.` token routes to. */
  workspace?: string;
  /** Whether the workspace was named by --workspace (then the request names it too). */
  workspaceNamed: boolean;
  /** coverage: the --require file's path. */
  require?: string;
  /** coverage: the lowest share of documented pairs, in percent, that passes. */
  failUnder?: number;
  /**
   * coverage: answers forced with `Prefer: code=` count as exercised, and `*` lines and --fail-under keep the statuses
   * a client's requests cannot bring about (the run may force them).
   */
  countForced: boolean;
  format: CoverageFormat;
  /** wait: how long to wait for the sandbox to answer, in seconds. */
  timeoutSeconds: number;
  /** wait: the sandbox's process; waiting ends at once when it is gone. */
  pid?: number;
  help: boolean;
}

/** wait: the default deadline, in seconds. */
export const DEFAULT_WAIT_SECONDS = 60;
/** wait: the longest deadline --timeout takes, in seconds. */
export const MAX_WAIT_SECONDS = 3600;

export type ClientParseResult = { ok: true; options: ClientOptions } | { ok: false; errors: string[] };

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  workspace: { type: 'string' },
  require: { type: 'string' },
  'fail-under': { type: 'string' },
  'count-forced': { type: 'boolean' },
  format: { type: 'string' },
  timeout: { type: 'string' },
  pid: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Which flags each command takes. */
const TAKES: Record<ClientCommand, readonly (keyof typeof OPTIONS)[]> = {
  coverage: ['url', 'token', 'workspace', 'require', 'fail-under', 'count-forced', 'format', 'help'],
  export: ['url', 'token', 'workspace', 'help'],
  wait: ['url', 'timeout', 'pid', 'help'],
};

/** The workspace a token routes to (`ws_<id>.<secret>...`), if it is a workspace token. */
export const workspaceOfToken = (token: string): string | undefined => /^ws_([A-Za-z0-9-]{1,64})\./.exec(token)?.[1];

/** Parses `argv` (after the command word) for `command`; SANDBOX_URL and SANDBOX_TOKEN stand in for --url and --token. */
export function parseClientArgs(command: ClientCommand, argv: readonly string[], env: Record<string, string | undefined> = {}): ClientParseResult {
  const errors: string[] = [];
  const given = new Map<string, string>();
  const read = (args: readonly string[]): void => {
    const { tokens } = nodeParseArgs({ args: [...args], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
    for (const token of tokens) {
      if (token.kind === 'positional') {
        errors.push(`Unexpected argument '${token.value}'`);
        continue;
      }
      if (token.kind === 'option-terminator') continue;
      const name = token.name as keyof typeof OPTIONS;
      if (!Object.hasOwn(OPTIONS, name) || !TAKES[command].includes(name)) {
        errors.push(`${command} takes no option '${token.rawName}'; it takes ${TAKES[command].map((f) => `--${f}`).join(', ')}`);
        continue;
      }
      if (OPTIONS[name].type === 'string' && (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))) {
        // A following flag is not a value: '--url --token x' is a --url without one, then --token.
        errors.push(`${token.rawName} needs a value`);
        if (token.value !== undefined) return read(args.slice(token.index + 1));
        continue;
      }
      if (OPTIONS[name].type === 'boolean' && token.inlineValue) {
        errors.push(`${token.rawName} takes no value`);
        continue;
      }
      if (given.has(name)) errors.push(`${token.rawName} was given more than once`);
      given.set(name, token.value ?? '');
    }
  };
  read(argv);

  const options: ClientOptions = {
    command,
    url: DEFAULT_URL,
    workspaceNamed: false,
    format: 'markdown',
    timeoutSeconds: DEFAULT_WAIT_SECONDS,
    countForced: given.has('count-forced'),
    help: given.has('help'),
  };
  if (options.help) return { ok: true, options };

  const url = given.get('url') ?? (env.SANDBOX_URL || undefined);
  if (url !== undefined) {
    const source = given.has('url') ? '--url' : 'SANDBOX_URL';
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      // reported below
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash)
      errors.push(`${source} must be the sandbox's http(s) address, e.g. ${DEFAULT_URL}, got '${url}'`);
    else options.url = parsed.href.replace(/\/+$/, '');
  }

  const token = given.get('token') ?? (env.SANDBOX_TOKEN || undefined);
  if (token !== undefined) {
    if (token.trim() === '' || /\s/.test(token)) errors.push(`${given.has('token') ? '--token' : 'SANDBOX_TOKEN'} must be a token without spaces`);
    else options.token = token;
  }

  const workspace = given.get('workspace');
  if (workspace !== undefined) {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(workspace)) errors.push(`--workspace must be a workspace id (letters, digits and -, at most 64), got '${workspace}'`);
    else Object.assign(options, { workspace, workspaceNamed: true });
  } else if (options.token) options.workspace = workspaceOfToken(options.token);

  if (given.has('require')) {
    if (given.get('require')!.trim() === '') errors.push('--require must be a file path');
    else options.require = given.get('require');
  }

  const failUnder = given.get('fail-under');
  if (failUnder !== undefined) {
    const value = Number(failUnder.trim());
    if (failUnder.trim() === '' || !Number.isFinite(value) || value < 0 || value > 100)
      errors.push(`--fail-under must be a percentage from 0 to 100, got '${failUnder}'`);
    else options.failUnder = value;
  }

  const format = given.get('format');
  if (format !== undefined) {
    if ((COVERAGE_FORMATS as readonly string[]).includes(format)) options.format = format as CoverageFormat;
    else errors.push(`--format must be one of ${COVERAGE_FORMATS.join(', ')}, got '${format}'`);
  }

  const timeout = given.get('timeout');
  if (timeout !== undefined) {
    const value = Number(timeout.trim());
    if (timeout.trim() === '' || !Number.isFinite(value) || value <= 0 || value > MAX_WAIT_SECONDS)
      errors.push(`--timeout must be a number of seconds above 0 and at most ${MAX_WAIT_SECONDS}, got '${timeout}'`);
    else options.timeoutSeconds = value;
  }

  const pid = given.get('pid');
  if (pid !== undefined) {
    if (!/^[1-9][0-9]{0,9}$/.test(pid.trim())) errors.push(`--pid must be a process id (a positive integer), got '${pid}'`);
    else options.pid = Number(pid.trim());
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, options };
}
