// The load generator: wrk (Debian's `wrk`, what the issue's figures were measured with: a C client that leaves
// the most CPU to the servers on a 2-core machine), or autocannon (a devDependency, so `npm ci` is enough) when
// wrk is not installed. Both drive a fixed number of keep-alive connections for a fixed time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One load run. */
export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** For POST: the body of request number n (unique SKUs, so every create can succeed). */
  body?: (n: number, runId: string) => string;
  /** The same body template as Lua source for wrk: `body` with `n` and `run` in scope. */
  luaBody?: string;
  /** One header whose value rotates over `values`, request by request (e.g. the tokens of many workspaces). */
  rotate?: { header: string; values: string[] };
  /**
   * A mixed workload: each connection sends these requests in turn, again and again (`url` gives the origin;
   * `method` and `body` are each step's own). A step with a body is a POST with JSON.
   */
  sequence?: SequenceStep[];
}

/** One request of a sequence: a path (with its query), and for a POST its JSON body as `LoadSpec.body` and `luaBody`. */
export interface SequenceStep {
  path: string;
  body?: (n: number, runId: string) => string;
  luaBody?: string;
}

/** What one run measured. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  /** Answers that were not 2xx/3xx, plus socket errors. */
  errors: number;
}

export type LoadToolName = 'wrk' | 'autocannon';

export function loadToolName(): LoadToolName {
  if (process.env.BENCH_TOOL === 'autocannon') return 'autocannon';
  return spawnSync('wrk', ['--version']).error ? 'autocannon' : 'wrk';
}

export async function drive(spec: LoadSpec, tool: LoadToolName = loadToolName()): Promise<LoadResult> {
  return tool === 'wrk' ? driveWrk(spec) : driveAutocannon(spec);
}

let runs = 0;
const runId = () => `${process.pid.toString(36)}${Date.now().toString(36)}${(runs++).toString(36)}`;

const lua = (value: string) => JSON.stringify(value); // a JSON string literal is a valid Lua string literal here

async function driveWrk(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  const script = join(dir, 'script.lua');
  const headers = Object.entries(spec.headers)
    .map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`)
    .join('\n');
  writeFileSync(
    script,
    `wrk.method = ${lua(spec.method)}
${headers}
local n = 0
local run = ${lua(runId())}
${
  spec.sequence
    ? `local steps = { ${spec.sequence.map((step) => `{ path = ${lua(step.path)}, post = ${step.luaBody ? 'true' : 'false'} }`).join(', ')} }
local posted = {}
for k, v in pairs(wrk.headers) do posted[k] = v end
posted["Content-Type"] = "application/json"
request = function()
  n = n + 1
  local step = steps[((n - 1) % #steps) + 1]
  if not step.post then return wrk.format("GET", step.path) end
${spec.sequence
  .map((step, i) =>
    step.luaBody
      ? `  if step == steps[${i + 1}] then return wrk.format("POST", step.path, posted, ${step.luaBody}) end
`
      : '',
  )
  .join('')}end`
    : spec.luaBody
      ? `request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, ${spec.luaBody})
end`
      : spec.rotate
        ? `local rotate = { ${spec.rotate.values.map(lua).join(', ')} }
request = function()
  n = n + 1
  wrk.headers[${lua(spec.rotate.header)}] = rotate[(n % #rotate) + 1]
  return wrk.format()
end`
        : ''
}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nRESULT {"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p99_us":%d,"max_us":%d}\\n',
    summary.requests, summary.duration, e.status + e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`,
  );
  try {
    const out = await run('wrk', ['-t1', `-c${spec.connections}`, `-d${spec.seconds}s`, '--timeout', '10s', '-s', script, spec.url]);
    const line = out.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`wrk printed no result:\n${out}`);
    const r = JSON.parse(line.slice(7)) as Record<string, number>;
    return {
      requestsPerSecond: r.requests / (r.duration_us / 1e6),
      p50Ms: r.p50_us / 1000,
      p99Ms: r.p99_us / 1000,
      maxMs: r.max_us / 1000,
      requests: r.requests,
      errors: r.errors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function driveAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const { default: autocannon } = (await import('autocannon')) as { default: (opts: object) => Promise<any> };
  const id = runId();
  let n = 0;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    method: spec.method,
    headers: spec.headers,
    requests: spec.sequence
      ? spec.sequence.map((step) =>
          step.body
            ? {
                method: 'POST',
                path: step.path,
                headers: { ...spec.headers, 'Content-Type': 'application/json' },
                setupRequest: (req: object) => ({ ...req, body: step.body!(++n, id) }),
              }
            : { method: 'GET', path: step.path, headers: spec.headers },
        )
      : spec.body
        ? [{ setupRequest: (req: object) => ({ ...req, body: spec.body!(++n, id) }) }]
        : spec.rotate
          ? [
              {
                setupRequest: (req: { headers?: object }) => ({
                  ...req,
                  headers: { ...req.headers, [spec.rotate!.header]: spec.rotate!.values[++n % spec.rotate!.values.length] },
                }),
              },
            ]
          : undefined,
  });
  return {
    requestsPerSecond: result.requests.total / (result.duration || spec.seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}:\n${out}`))));
  });
}
