// What `--help` prints. Kept next to the parser so a new flag and its line of help change together
// (a test checks every flag and variable is mentioned).
import { LOG_LEVELS, MAX_LATENCY_MS } from '../config.js';
import { CLI_DEFAULTS } from './parse-args.js';
import { COMMANDS_HELP } from './client-help.js';

// [flags, what it does, environment variable, default]
const ROWS: [string, string, string, string][] = [
  ['-p, --port <n>', 'Port to listen on, 0 to 65535 (0 picks a free one)', 'PORT', String(CLI_DEFAULTS.port)],
  ['    --host <addr>', 'Address to listen on (0.0.0.0 accepts other machines)', 'HOST', CLI_DEFAULTS.host],
  ['    --seed <n>', 'Seed of the generated data: same seed, same data', 'SEED', 'fixed'],
  ['    --data <file>', 'JSON file the store is kept in', 'DATA_FILE', 'data/sandbox.json'],
  ['    --in-memory', 'Keep the store in memory only, nothing on disk', 'STORE=memory', ''],
  ['    --reset', 'Reseed the data file on start, discarding its changes', 'RESET=1', ''],
  ['    --latency <ms>', `Add this delay to every answer, 0 to ${MAX_LATENCY_MS}`, 'LATENCY_MS', String(CLI_DEFAULTS.latencyMs)],
  ['    --log-level <l>', LOG_LEVELS.join(' | '), 'LOG_LEVEL', CLI_DEFAULTS.logLevel],
  ['    --strict', 'Refuse (422) query parameters and body fields the contract does not name', 'STRICT=1', ''],
  ['    --load <file>', "Start on an exported bundle's world, in memory (see it in /_sandbox/inspector)", '', ''],
  ['    --uploads-origin <url>', 'Origin uploaded images are served from (another site routed here)', 'UPLOADS_ORIGIN', 'PUBLIC_URL'],
  ['-h, --help', 'Show this help', '', ''],
  ['-v, --version', 'Show the version', '', ''],
];

/** The full --help text; `name` is how the user invoked it (the package's bin name). */
export function helpText(name = 'commerce-operations-sandbox', version?: string): string {
  const options = ROWS.map(([flags, what, env, def]) => {
    const extra = [env && `env ${env}`, def && `default ${def}`].filter(Boolean).join(', ');
    // A flag too long for its column takes a line of its own.
    const head = flags.length < 20 ? flags.padEnd(20) : `${flags}\n  ${''.padEnd(20)}`;
    return `  ${head}${what}${extra ? `\n  ${''.padEnd(20)}(${extra})` : ''}`;
  }).join('\n');
  return `${name}${version ? ` ${version}` : ''}
A local, stateful, contract-checked sandbox of the Commerce Operations API 2024-09.

Usage: ${name} [options]
       ${name} coverage|export|wait [options]

${COMMANDS_HELP}

Options (a flag wins over its environment variable):
${options}

Environment only:
  CORS_ORIGINS          Browser origins allowed: * (default; hosted: PUBLIC_URL's) or a comma list
  WORKSPACE_TTL_SECONDS Delete a workspace after this long without a request (default 3600)
  MAX_WORKSPACES        Workspaces kept at once, up to 100000 (default 10000)
  HEAP_BUDGET_PERCENT   503 for new workspaces, loads, uploads past this % of heap (default 75)
  JOURNAL_SIZE          Requests kept by the journal (default 1000)
  SHUTDOWN_GRACE_SECONDS  On SIGTERM, time requests in flight have to finish, 0-600 (default 10)
  RETAILER_REDIRECT_URI Where the simulated retailer's consent page sends the browser
  TRUST_PROXY           Behind a proxy (true, hops or addresses): links follow X-Forwarded-*
  REPLICA_ID            One of several replicas behind nginx: prefixes its workspace ids (e.g. r1)
  HOSTED                1: hosted mode, a public docs site (needs SANDBOX_ADMIN_TOKEN, PUBLIC_URL)
  SANDBOX_ADMIN_TOKEN   The admin token of hosted mode (128+ bits: openssl rand -hex 32)
  PUBLIC_URL            Origin of absolute URLs, e.g. https://sandbox.example.com (else request's)
  ADMIN_ATTEMPTS_PER_HOUR  Wrong control-plane tokens per address before 429 (hosted: 20)
  WORKSPACE_CREATE_PER_MINUTE  Workspaces one address may create per minute (hosted: 10)
  BUNDLE_MAX_BYTES      Largest bundle exported or loaded (default 33554432, 32 MiB; hosted 8 MiB)
  BUNDLE_LOADS_IN_FLIGHT   Bundle loads one process takes at once; more answer 503 (default 2)
  BUNDLE_EXPORTS_IN_FLIGHT Exports one process builds at once, one per workspace (default 2)

Once started:
  /docs                 API docs with "Try it out" (the demo token is filled in)
  /_sandbox/inspector   Request inspector: each request, why it was answered so, coverage
  /_sandbox/health      Readiness probe (200 when serving)
  Prefer: code=404      Ask any operation for one of its documented statuses
  Prefer: delay=250     Delay one answer (milliseconds)
  Prefer: strict        Refuse (422) fields the contract does not name, for one request
  POST /_sandbox/workspaces  An isolated world with its own tokens, per CI job

Examples:
  ${name} --port 4010
  ${name} --in-memory --port 0 --log-level warn
  PORT=8080 DATA_FILE=./tmp/sandbox.json ${name} --reset
  ${name} --load run.json   (a CI run's export; then open /_sandbox/inspector)
`;
}
