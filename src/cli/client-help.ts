// What `coverage --help` and `export --help` print, and the lines the main --help gives them.
import { DEFAULT_URL, DEFAULT_WAIT_SECONDS } from './client-args.js';
import { REQUEST_TIMEOUT_MS } from './sandbox-request.js';

const CONNECTION = `  --url <url>           The sandbox (env SANDBOX_URL, default ${DEFAULT_URL})
  --token <token>       A workspace token or the admin token (env SANDBOX_TOKEN; a local sandbox needs
                        none for its default world)
  --workspace <id>      The workspace (default: the one a ws_<id>. token belongs to, else the default world)
  -h, --help            Show this help`;

const EXIT_CODES = (gate: boolean) => `Exit codes:
  0  ${gate ? 'the gate passed (without --require and --fail-under: the report was printed)' : 'the bundle was written to stdout'}
${gate ? '  1  the gate failed: the missing pairs are listed on stderr\n' : ''}  2  a usage error${gate ? ' (a wrong line of the --require file names its line)' : ''}, no sandbox at the URL, no answer within ${REQUEST_TIMEOUT_MS / 1000} s,
     or the sandbox refused the request (401, 403, 404${gate ? '' : ', 413 over the export limit'})`;

/** The main --help's lines for the client commands. */
export const COMMANDS_HELP = `Commands (against a running sandbox; each has --help):
  coverage              Print the contract coverage; with --require/--fail-under, a CI gate (exit 1)
  export                Write a workspace as one JSON bundle to stdout (run.json, for --load)
  wait                  Wait until the sandbox answers, with a deadline (exit 1 if it does not)`;

export function coverageHelp(name: string): string {
  return `Usage: ${name} coverage [--url <url>] [--token <token>] [--require <file>] [--fail-under <percent>]
       [--count-forced] [--format <f>]

Prints which (operation, documented status) pairs of the contract the workspace's requests exercised
(GET /_sandbox/coverage) and, asked to, gates on them: the report goes to stdout, the verdict to stderr.

Options:
${CONNECTION}
  --format <f>          markdown (default), junit (JUnit XML for a CI test report), junit-gate (only the
                        gate's own cases: the required pairs and --fail-under) or json
  --fail-under <pct>    Fail when less than this share of the documented pairs of the operations the run
                        called was exercised (0-100); the contract-wide share is printed beside it. Pairs no
                        client request causes (503 short of memory, 504 only Prefer causes: the contract's
                        x-sandbox-client-causable: false) are left out
  --count-forced        Count answers forced with 'Prefer: code=' as exercised (by default they are listed,
                        not counted: the client did not cause them), and keep the pairs no client request
                        causes in '*' lines and --fail-under (a run that forces answers can force those)
  --require <file>      Fail when a pair the file names was not exercised. One pair a line:
                          getProduct 404      an operationId and a status it documents
                          createProduct 4xx   every 4xx the operation documents
                          * 422               every operation the run called that documents 422
                        '#' starts a comment; a wrong line is a usage error naming it. A '*' line leaves
                        out the pairs no client request causes and says which on stderr; a line naming
                        the operation requires them.

${EXIT_CODES(true)}

Example:
  ${name} coverage --token "$WS_TOKEN" --require coverage.require --fail-under 40 --format junit > coverage.xml
`;
}

export function exportHelp(name: string): string {
  return `Usage: ${name} export [--url <url>] [--token <token>] [--workspace <id>] > run.json

Writes one workspace (its records, clock, uploads, journal and coverage) as a JSON bundle to stdout
(GET /_sandbox/workspaces/{workspace}/export); \`${name} --load run.json\` opens it again.

Options:
${CONNECTION}

${EXIT_CODES(false)}
`;
}

export function waitHelp(name: string): string {
  return `Usage: ${name} wait [--url <url>] [--timeout <seconds>] [--pid <pid>]

Waits until the sandbox answers GET /_sandbox/health with 200: the readiness check of a CI step, after
starting the sandbox in the background. It asks every 0.1 s.

Options:
  --url <url>           The sandbox (env SANDBOX_URL, default ${DEFAULT_URL})
  --timeout <seconds>   The deadline (default ${DEFAULT_WAIT_SECONDS})
  --pid <pid>           The sandbox's process: when it exits first (a port in use, a bad flag), stop
                        waiting at once
  -h, --help            Show this help

Exit codes:
  0  the sandbox answered
  1  it did not answer by the deadline, or its process exited first (stderr says which)
  2  a usage error

Example:
  ${name} --in-memory --port 4010 > sandbox.log 2>&1 &
  ${name} wait --url http://127.0.0.1:4010 --pid $! --timeout 60 || { cat sandbox.log; exit 1; }
`;
}
