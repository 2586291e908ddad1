// `commerce-operations-sandbox coverage|export|wait ...`: the commands that talk to a running sandbox, as one function
// of the command line, the environment and the two output streams (client-main.ts runs it as the bin's process).
// Exit codes: 0 done (gate passed), 1 gate failed (wait: not ready), 2 usage error or no usable answer from the sandbox.
import { readFile } from 'node:fs/promises';
import { binName } from '../sandbox/package-info.js';
import { renderJunit, renderMarkdown, gateLines, type WorkspaceCoverage } from '../observe/coverage-formats.js';
import { isClientCommand, parseClientArgs, type ClientOptions } from './client-args.js';
import { coverageHelp, exportHelp, waitHelp } from './client-help.js';
import { countedReport, decideGate, type GateOutcome } from './coverage-gate.js';
import { parseRequireFile, requiredPairs, uncountedPairs, type Requirement } from '../observe/require-file.js';
import { ClientError, getFromSandbox } from './sandbox-request.js';
import { waitReady } from './wait-ready.js';

/** Where a client command writes: the report or bundle to `stdout`, what it says about it to `stderr`. */
export interface ClientIo {
  env: Record<string, string | undefined>;
  stdout(chunk: string | Uint8Array): void;
  stderr(text: string): void;
}

const GATE_FAILED = 1;
const NOT_READY = 1;
const USAGE_ERROR = 2;

const sayTo = (io: ClientIo) => (line: string) => io.stderr(`${binName} ${line}\n`);

class UsageError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

async function readRequirements(file: string): Promise<Requirement[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError([`coverage: cannot read --require file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`]);
  }
  const parsed = parseRequireFile(text, file);
  if (!parsed.ok) throw new UsageError(parsed.errors.map((e) => `coverage: ${e}`));
  return parsed.value;
}

function printGate(io: ClientIo, report: WorkspaceCoverage, gate: GateOutcome, served: WorkspaceCoverage): void {
  const say = sayTo(io);
  for (const line of gateLines(report, gate)) say(`coverage: ${line}`);
  // A required pair the run only forced: the likeliest reason a team's gate fails where its tests passed.
  const forced = new Set(served.operations.flatMap((op) => (op.forced ?? []).map((s) => `${op.operation_id} ${s}`)));
  const onlyForced = [...gate.missed].filter((key) => forced.has(key));
  if (onlyForced.length > 0) say(`coverage: answered only when forced with Prefer: code= (not counted unless --count-forced): ${onlyForced.join(', ')}.`);
  if (gate.passed) return;
  // What to exercise next: the required pairs missed, or (below --fail-under) every pair of the operations called not exercised.
  const listed = gate.threshold?.passed === false ? [...gate.missingByOperation] : groupByOperation([...gate.missed]);
  say(`coverage: gate failed; not exercised${gate.threshold?.passed === false ? '' : ' (required)'}:`);
  for (const [operationId, statuses] of listed) io.stderr(`  ${operationId} ${statuses.join(', ')}\n`);
}

function groupByOperation(keys: string[]): [string, string[]][] {
  const out = new Map<string, string[]>();
  for (const key of keys) {
    const [op, status] = key.split(' ') as [string, string];
    out.set(op, [...(out.get(op) ?? []), status]);
  }
  return [...out];
}

async function coverage(options: ClientOptions, io: ClientIo): Promise<number> {
  const say = sayTo(io);
  // The file is read first: a wrong line is reported without asking the sandbox anything.
  const requirements = options.require === undefined ? undefined : await readRequirements(options.require);
  const res = await getFromSandbox(options.url, '/_sandbox/coverage', options.token, { workspace: options.workspaceNamed ? options.workspace : undefined });
  const served = ((await res.json()) as { data: WorkspaceCoverage }).data;
  // What the gate counts (forced answers only with --count-forced); json prints what the sandbox answered.
  const report = { ...countedReport(served, options.countForced), workspace: served.workspace };
  const uncounted = uncountedPairs(served, options.countForced);
  let required: string[] | undefined;
  if (requirements) {
    const pairs = requiredPairs(requirements, report, options.require!, uncounted);
    if (!pairs.ok) throw new UsageError(pairs.errors.map((e) => `coverage: ${e}`));
    required = pairs.value;
    for (const skip of pairs.skipped ?? [])
      say(
        `coverage: ${options.require}:${skip.line}: '${skip.text}' leaves out ${skip.pairs.join(', ')}: no client request causes them (x-sandbox-client-causable: false); name the operation on a line, or pass --count-forced, to require them.`,
      );
  }
  const gating = required !== undefined || options.failUnder !== undefined;
  const gate = gating ? { ...decideGate(report, required, options.failUnder, uncounted), countForced: options.countForced } : undefined;
  const out =
    options.format === 'junit' || options.format === 'junit-gate'
      ? renderJunit(report, gate, { gateOnly: options.format === 'junit-gate' })
      : options.format === 'markdown'
        ? renderMarkdown(report, gate)
        : `${JSON.stringify({ data: served }, null, 2)}\n`;
  io.stdout(out);
  if (!gate) return 0;
  printGate(io, report, gate, served);
  return gate.passed ? 0 : GATE_FAILED;
}

async function exportWorkspace(options: ClientOptions, io: ClientIo): Promise<number> {
  const workspace = options.workspace ?? 'default';
  const res = await getFromSandbox(options.url, `/_sandbox/workspaces/${encodeURIComponent(workspace)}/export`, options.token);
  io.stdout(Buffer.from(await res.arrayBuffer()));
  return 0;
}

async function waitForSandbox(options: ClientOptions, io: ClientIo): Promise<number> {
  const say = sayTo(io);
  const outcome = await waitReady(options.url, options.timeoutSeconds * 1000, options.pid);
  if (outcome.ready) {
    say(`wait: ready at ${options.url} after ${(outcome.afterMs / 1000).toFixed(1)} s`);
    return 0;
  }
  say(`wait: the sandbox is not ready: ${outcome.why}`);
  return NOT_READY;
}

const HELP = { coverage: coverageHelp, export: exportHelp, wait: waitHelp };
const RUN = { coverage, export: exportWorkspace, wait: waitForSandbox };

async function run(argv: readonly string[], io: ClientIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!isClientCommand(command)) throw new UsageError([`unknown command '${command}'`]);
  const parsed = parseClientArgs(command, rest, io.env);
  if (!parsed.ok) throw new UsageError(parsed.errors.map((e) => `${command}: ${e}`));
  if (parsed.options.help) {
    io.stdout(HELP[command](binName));
    return 0;
  }
  return RUN[command](parsed.options, io);
}

/** Runs the client command `argv` (the words after the bin's name); resolves with its exit code, never rejects. */
export async function runClient(argv: readonly string[], io: ClientIo): Promise<number> {
  const say = sayTo(io);
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      for (const line of error.lines) say(line);
      say(`${argv[0]} --help shows the options.`);
    } else if (error instanceof ClientError) say(`${argv[0]}: ${error.message}`);
    else io.stderr(`${binName}: ${(error as Error)?.stack ?? String(error)}\n`);
    return USAGE_ERROR;
  }
}
