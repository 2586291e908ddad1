import { resolve } from 'node:path';
import { helpText } from './cli/help-text.js';
import { parseArgs } from './cli/parse-args.js';
import { outliveClosedStdout } from './cli/closed-stdout.js';
import { stopWithParent } from './cli/stop-with-parent.js';
import { configFromOptions } from './config.js';
import { DEMO_USERS } from './sandbox/demo-tokens.js';
import { binName, packageVersion } from './sandbox/package-info.js';
import { seedOnAThread } from './seeding-thread.js';
import type { RunningSandbox } from './start-sandbox.js';
import { StoreFileError } from './store/persistence.js';

/** Printed once every operation's validators are compiled (the benchmark waits for it). */
const WARMED_UP_LINE = '  validators:  compiled for every operation';

// The server's modules, loaded once the seeding thread has started (main below).
let startSandbox: typeof import('./start-sandbox.js').startSandbox;

/** Exit code for a bad command line, as most CLIs use. */
const USAGE_ERROR = 2;

function fail(errors: string[]): never {
  for (const error of errors) console.error(`${binName}: ${error}`);
  console.error(`Run ${binName} --help for the options.`);
  process.exit(USAGE_ERROR);
}

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2), process.env);
  if (!parsed.ok) fail(parsed.errors);
  if (parsed.options.help) {
    console.log(helpText(binName, packageVersion));
    return;
  }
  if (parsed.options.version) {
    console.log(packageVersion);
    return;
  }
  const { config, errors } = configFromOptions(parsed.options, process.env);
  if (errors.length > 0) fail(errors);

  // Signals are handled from before the server listens: whoever sees it answer (or reads the announcement) may
  // stop it at once, and a signal that arrives while it starts stops it once it has started.
  let sandbox: RunningSandbox | undefined;
  let requested: string | undefined;
  let closing = false;
  const shutdown = (signal: string) => {
    if (!sandbox) {
      requested ??= signal;
      return;
    }
    if (closing) {
      // A second signal (Ctrl-C twice) does not wait for requests in flight.
      sandbox.server.closeAllConnections();
      return;
    }
    closing = true;
    if (config.logLevel !== 'silent') {
      console.log(
        `${signal}: no new connections; requests in flight may finish within ${config.shutdownGraceMs / 1000} s, then the store is flushed and the sandbox exits`,
      );
    }
    sandbox.close({ graceMs: config.shutdownGraceMs }).then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  outliveClosedStdout();
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  stopWithParent(() => shutdown('parent process gone'));

  // The request log goes to stdout: readable lines in a terminal, JSON lines otherwise. A new world is seeded on
  // another thread while the server's modules load, which is why they are imported only now (a loaded bundle
  // brings its own world).
  const seeded = parsed.options.load ? undefined : seedOnAThread(config);
  ({ startSandbox } = await import('./start-sandbox.js'));
  // The seed only when --seed or SEED gave one: a loaded bundle (or a data file) otherwise keeps its own.
  sandbox = await startSandbox({ ...config, seed: parsed.options.seed, load: parsed.options.load, seeded });
  const { url } = sandbox;
  if (requested) return shutdown(requested);

  if (config.logLevel !== 'silent') {
    console.log(`Commerce Operations API sandbox (2024-09) listening on ${url}`);
    console.log(`  docs:        ${url}/docs`);
    // The request inspector: the journal as a page, each answer's trail, the coverage grid (a loaded run's included).
    console.log(`  inspector:   ${url}/_sandbox/inspector`);
    console.log(`  health:      ${url}/_sandbox/health`);
    console.log(`  store:       ${sandbox.config.store === 'memory' ? 'in memory' : resolve(config.dataFile)} (seed ${sandbox.config.seed})`);
    if (parsed.options.load) {
      console.log(
        `  loaded:      ${parsed.options.load} into the default world (open its requests in the inspector: ${url}/_sandbox/inspector); the demo tokens below act on it, and so does each token of a user the run made (listed below; POST /_sandbox/users/{user}/tokens issues more), the exporting run's workspace tokens do not`,
      );
      // A bundle carries no token: each user the run made got a new one at load, to replay its requests as them.
      for (const user of sandbox.loadedUsers ?? []) console.log(`  user of the run: ${user.name} <${user.email}> ${user.id}: ${user.token}`);
    }
    // Hosted, the demo tokens answer 401: each visitor acts in a workspace of their own, with its tokens.
    if (sandbox.config.hosted) console.log("  tokens:      each visitor's own workspace's (POST /_sandbox/workspaces); the demo tokens answer 401 here");
    else console.log(`  demo tokens: ${DEMO_USERS.map((u) => u.token).join(', ')}`);
    // It answers from the start; from this line on, no operation's first call waits for its validators to compile.
    sandbox.warmedUp.then(() => closing || console.log(WARMED_UP_LINE));
  }
}

main().catch(async (error) => {
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string };
  // Imported here, not above: the bundle reader loads the validator's errors, which the seeding thread must not
  // wait for (main imports only what it needs before that thread starts).
  const { BundleRefused } = await import('./sandbox/bundle-file.js');
  if (error instanceof BundleRefused) {
    // A bundle that cannot be loaded whole is a bad argument, like a bad flag: exit 2, naming what is wrong.
    for (const line of error.lines) console.error(`${binName}: ${line}`);
    process.exit(USAGE_ERROR);
  }
  if (error instanceof StoreFileError) console.error(`${binName}: ${error.message}`);
  else if (e?.code === 'EADDRINUSE')
    console.error(`${binName}: port ${e.port} on ${e.address} is already in use; pick another with --port (0 picks a free one).`);
  else if (e?.code === 'EADDRNOTAVAIL' || e?.code === 'ENOTFOUND')
    // A name that does not resolve (ENOTFOUND) has no address: its error names the host it looked up instead.
    console.error(`${binName}: cannot listen on ${e.address ?? e.hostname ?? 'that host'}: ${e.code}; check --host.`);
  else if (e?.code === 'EACCES') console.error(`${binName}: not allowed to listen on port ${e.port}; use a port above 1023.`);
  else console.error(error);
  process.exit(1);
});
