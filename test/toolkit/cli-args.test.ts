import { describe, expect, it } from 'vitest';
import { helpText } from '../../src/cli/help-text.js';
import { parseArgs, type CliOptions } from '../../src/cli/parse-args.js';

const ok = (argv: string[], env: Record<string, string> = {}): CliOptions => {
  const r = parseArgs(argv, env);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.options;
};
const errors = (argv: string[], env: Record<string, string> = {}): string[] => {
  const r = parseArgs(argv, env);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

describe('CLI arguments', () => {
  it('When nothing is given, then the defaults apply', () => {
    expect(ok([])).toEqual({
      port: 4010,
      host: '127.0.0.1',
      store: 'file',
      reset: false,
      latencyMs: 0,
      logLevel: 'info',
      strict: false,
      help: false,
      version: false,
    });
  });

  it('When every flag is given, then each is parsed (space or = form)', () => {
    expect(
      ok(['--port', '8080', '--host=0.0.0.0', '--seed', '42', '--data', './x.json', '--reset', '--latency=150', '--log-level', 'DEBUG', '--strict']),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      seed: 42,
      dataFile: './x.json',
      store: 'file',
      reset: true,
      latencyMs: 150,
      logLevel: 'debug',
      strict: true,
      help: false,
      version: false,
    });
    expect(ok(['-p', '0', '--in-memory'])).toMatchObject({ port: 0, store: 'memory' });
  });

  it('When only the environment is set, then it is used', () => {
    expect(ok([], { PORT: '9000', HOST: '::1', SEED: '7', DATA_FILE: 'd.json', RESET: '1', LATENCY_MS: '25', LOG_LEVEL: 'warn' })).toMatchObject({
      port: 9000,
      host: '::1',
      seed: 7,
      dataFile: 'd.json',
      store: 'file',
      reset: true,
      latencyMs: 25,
      logLevel: 'warn',
    });
    expect(ok([], { STORE: 'memory' })).toMatchObject({ store: 'memory' });
    expect(ok([], { STRICT: '1' })).toMatchObject({ strict: true });
    expect(ok([], { RESET: '0', PORT: '' })).toMatchObject({ reset: false, port: 4010 });
  });

  it('When a flag and its variable are both set, then the flag wins', () => {
    expect(ok(['--port', '1234', '--data', 'flag.json'], { PORT: '9000', STORE: 'memory' })).toMatchObject({
      port: 1234,
      store: 'file',
      dataFile: 'flag.json',
    });
  });

  it('When --port is not a number, then the error is "--port must be an integer from 0 to 65535, got \'abc\'"', () => {
    expect(errors(['--port', 'abc'])).toEqual(["--port must be an integer from 0 to 65535, got 'abc'"]);
    expect(errors(['--port=70000'])).toEqual(["--port must be an integer from 0 to 65535, got '70000'"]);
    expect(errors(['--port', '-1'])).toEqual(["--port must be an integer from 0 to 65535, got '-1'"]);
  });

  it('When an environment variable is bad, then the error names the variable', () => {
    expect(errors([], { PORT: 'http' })).toEqual(["PORT must be an integer from 0 to 65535, got 'http'"]);
    expect(errors([], { STORE: 'disk' })).toEqual(["STORE must be 'memory' or 'file', got 'disk'"]);
    expect(errors([], { RESET: 'maybe' })).toEqual(["RESET must be 1 or 0 (true or false), got 'maybe'"]);
  });

  it('When other values are bad, then each error names its flag and the accepted values', () => {
    expect(errors(['--latency', '1.5', '--log-level', 'loud', '--seed', 'x'])).toEqual([
      "--seed must be an integer from 0 to 4294967295, got 'x'",
      "--latency must be an integer number of milliseconds from 0 to 60000, got '1.5'",
      "--log-level must be one of error, warn, info, debug, silent, got 'loud'",
    ]);
  });

  it('When a flag lacks its value, is unknown, repeated or given a stray argument, then it is reported', () => {
    expect(errors(['--port'])).toEqual(['--port needs a value']);
    expect(errors(['--host', '--port', '1'])).toEqual(['--host needs a value']);
    expect(errors(['--prot', '1'])).toEqual(["Unknown option '--prot'. Did you mean --port?", "Unexpected argument '1'"]);
    expect(errors(['--port', '1', '--port', '2'])).toEqual(['--port was given more than once']);
    expect(errors(['--reset=yes'])).toEqual(["--reset takes no value, got 'yes'"]);
    expect(errors(['--data', 'x.json', '--in-memory'])).toEqual(['--data and --in-memory cannot be combined: --in-memory keeps nothing on disk']);
  });

  it('When a flag is followed by another flag instead of its value, then it lacks a value and the next flag still counts', () => {
    expect(parseArgs(['--port', '--host', '0.0.0.0'])).toEqual({ ok: false, errors: ['--port needs a value'] });
    expect(parseArgs(['--seed', '-p', '80'])).toEqual({ ok: false, errors: ['--seed needs a value'] });
    expect(parseArgs(['--latency', '-5'])).toEqual({ ok: false, errors: ["--latency must be an integer number of milliseconds from 0 to 60000, got '-5'"] });
  });

  it('When short flags are run together or given a value with =, then they are unknown', () => {
    expect(parseArgs(['-p=5'])).toEqual({ ok: false, errors: ["Unknown option '-p=5'."] });
    expect(parseArgs(['-hv'])).toEqual({ ok: false, errors: ["Unknown option '-hv'."] });
  });

  it('When --help or --version is given, then it wins even over bad values', () => {
    expect(ok(['--port', 'abc', '--help'])).toMatchObject({ help: true });
    expect(ok(['-v'])).toMatchObject({ version: true, help: false });
  });

  it('When --load names a bundle file, then the sandbox runs in memory on it; with --data or --reset, both are named as not combinable', () => {
    expect(ok(['--load', 'run.json', '--port', '0'])).toMatchObject({ load: 'run.json', store: 'memory', reset: false });
    expect(errors(['--load', 'run.json', '--data', 'x.json'])).toEqual(['--load and --data cannot be combined: --load keeps the loaded world in memory']);
    expect(errors(['--load', 'run.json', '--reset'])).toEqual(['--load and --reset cannot be combined: --load starts from the bundle']);
    expect(errors(['--load'])).toEqual(['--load needs a value']);
  });

  it('When --uploads-origin is not an origin, then the error names --uploads-origin, and UPLOADS_ORIGIN only when the variable gave it', () => {
    expect(errors(['--uploads-origin', 'uploads.example.com'])).toEqual([
      "--uploads-origin must be an absolute http(s) URL such as https://sandbox.example.com, got 'uploads.example.com'",
    ]);
    expect(errors([], { UPLOADS_ORIGIN: 'https://uploads.example.com/files' })).toEqual([
      "UPLOADS_ORIGIN must be an origin only (scheme, host and port, no path), got 'https://uploads.example.com/files'",
    ]);
    expect(ok(['--uploads-origin', ' https://Uploads.Example.com/ ']).uploadsOrigin).toBe('https://uploads.example.com');
  });

  it('When --data or DATA_FILE ends in a slash (a folder), then it is refused naming it, instead of a store file named after the folder', () => {
    expect(errors(['--data', 'data/'])).toEqual(["--data must be a file path, not a folder, got 'data/' (e.g. data/sandbox.json)"]);
    expect(errors([], { DATA_FILE: '/tmp/sandbox/' })).toEqual([
      "DATA_FILE must be a file path, not a folder, got '/tmp/sandbox/' (e.g. /tmp/sandbox/sandbox.json)",
    ]);
    expect(ok(['--data', 'data/world.json']).dataFile).toBe('data/world.json');
  });

  it('When DATA_FILE or --load has spaces around the path (a .env file, a paste), then the path is read without them', () => {
    expect(ok([], { DATA_FILE: ' data/world.json  ' }).dataFile).toBe('data/world.json');
    expect(ok(['--load', 'run.json ']).load).toBe('run.json');
  });

  it('When help is shown, then it mentions every flag and its environment variable', () => {
    const text = helpText('sandbox', '0.1.0');
    for (const word of [
      '--port',
      '--host',
      '--seed',
      '--data',
      '--in-memory',
      '--reset',
      '--latency',
      '--log-level',
      '--help',
      '--version',
      '--load',
      '--uploads-origin',
      'UPLOADS_ORIGIN',
      'PORT',
      'HOST',
      'SEED',
      'DATA_FILE',
      'STORE=memory',
      'RESET=1',
      'LATENCY_MS',
      'LOG_LEVEL',
    ])
      expect(text).toContain(word);
    expect(text.split('\n').every((l) => l.length <= 100)).toBe(true);
  });
});
