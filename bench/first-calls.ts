// The first call of every operation after the server answers (issues 23 and 32): a server is started on a fresh
// data file, and once it answers its first authenticated 200, every operation of its contract is called once, one
// after another, with a valid request built from the contract's own examples (path and query parameters, the JSON
// body's example), as the demo owner. Each call's time is from sending it to the last byte of its answer. Reads go
// first and deletes last, so no call finds what an earlier one removed. Then the same calls are made again and again
// (at least once) until 10 s after the spawn, from a client process of its own (bench/repeat-calls.mjs): the slowest of
// these repeated calls shows whether anything the server does in the background (compiling the validators it has not
// compiled yet, collecting garbage) holds a request up. The same is done, in the
// same rounds, on the installed package, the checkout, Prism's mock of the contract and an earlier commit's build.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { memoryOf, OWNER_TOKEN, startSandbox, type Running } from './servers.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One operation's call, from the contract's examples. */
export interface FirstCall {
  operationId: string;
  method: string;
  path: string;
  body?: string;
}

/** A call's outcome. */
interface Timed {
  operationId: string;
  status: number;
  ms: number;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
// Reads, then writes, then deletes: a delete never takes away what a later call names.
const ORDER = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE'];

/** Every operation of the contract at `root`, as one valid call each. */
export function firstCalls(root: string): FirstCall[] {
  const doc = load(readFileSync(join(root, 'openapi.yaml'), 'utf8')) as Obj;
  const deref = (value: unknown): unknown => {
    let current = value;
    for (let hops = 0; isObj(current) && typeof current.$ref === 'string' && hops < 8; hops++) {
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((node, key) => (isObj(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
    }
    return current;
  };
  const calls: FirstCall[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Obj>)) {
    for (const method of METHODS) {
      const op = item[method];
      // The versioned API's operations; the control plane (tag Sandbox: reset, workspaces, the journal) is the harness's own.
      if (!isObj(op) || typeof op.operationId !== 'string' || (Array.isArray(op.tags) && op.tags.includes('Sandbox'))) continue;
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(deref).filter(isObj);
      let url = path;
      const query = new URLSearchParams();
      for (const p of params) {
        const schema = deref(p.schema);
        const example = p.example ?? (isObj(schema) ? (schema.example ?? schema.default) : undefined);
        if (p.in === 'path') url = url.replace(`{${String(p.name)}}`, encodeURIComponent(String(example ?? 'x')));
        else if (p.in === 'query' && p.required && example !== undefined) query.set(String(p.name), String(example));
      }
      const body = deref(op.requestBody);
      const media = isObj(body) && isObj(body.content) ? body.content['application/json'] : undefined;
      const examples = isObj(media) && isObj(media.examples) ? Object.values(media.examples).map(deref) : [];
      const example = isObj(media) ? (media.example ?? (isObj(examples[0]) ? examples[0].value : undefined)) : undefined;
      calls.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: query.size > 0 ? `${url}?${query}` : url,
        ...(example !== undefined && { body: JSON.stringify(example) }),
      });
    }
  }
  return calls.sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));
}

function send(agent: Agent, base: string, call: FirstCall): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string> = { Authorization: `Bearer ${OWNER_TOKEN}` };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const req = httpRequest(base + call.path, { method: call.method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ operationId: call.operationId, status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

/** Calls every operation once on a running server, in order; each call's time and status. */
export async function callEach(server: Running, calls: FirstCall[]): Promise<Timed[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: Timed[] = [];
  try {
    for (const call of calls) out.push(await send(agent, server.url, call));
  } finally {
    agent.destroy();
  }
  return out;
}

/**
 * Calls every operation again and again, from a client process of its own (bench/repeat-calls.mjs says why), until
 * `until` (epoch ms), at least once each: how many calls it made and the slowest.
 */
function repeatCalls(server: Running, calls: FirstCall[], until: number): Promise<{ repeats: number; slowest: Timed }> {
  return new Promise((resolve, reject) => {
    const client = spawn(process.execPath, [fileURLToPath(new URL('./repeat-calls.mjs', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    client.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    client.on('error', reject);
    client.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the repeated-call client exited with ${code}`));
      resolve(JSON.parse(out) as { repeats: number; slowest: Timed });
    });
    client.stdin.end(JSON.stringify({ url: server.url, token: OWNER_TOKEN, until, calls }));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * What the sandbox prints once every operation's validators are compiled (src/main.ts): the words only, since the
 * banner pads its labels to line up (and an earlier commit, the baseline, padded them otherwise).
 */
export const WARMED_UP_LINE = 'compiled for every operation';

/** One way of meeting a build: as soon as it answers, or once it reports its validators compiled. */
export interface FirstCallCase {
  key: string;
  name: string;
  root: string;
  /** Wait for the build's report that its validators are compiled before the first call. */
  afterWarmUp?: boolean;
  /** Starts the server on a data file (a peer that is not a build of the sandbox); the build at `root` otherwise. */
  start?: (dataFile: string) => Promise<Running>;
}

/** Repeated calls are made until this long after the spawn. */
export const REPEAT_WINDOW_MS = 10_000;

/**
 * Starts each case `rounds` times (interleaved), on a fresh data file in `dir`, calls every operation once as soon
 * as it is ready, and notes the median and the worst first call of the round.
 */
export async function measureFirstCalls(
  cases: FirstCallCase[],
  rounds: number,
  dir: string,
  note: (key: string, label: string, unit: string, value: number) => void,
  log: (line: string) => void,
): Promise<void> {
  for (let round = 1; round <= rounds; round++) {
    for (const c of round % 2 ? cases : [...cases].reverse()) {
      const calls = firstCalls(c.root);
      const dataFile = join(dir, `first-calls-${c.key}-${round}.json`);
      const server = c.start ? await c.start(dataFile) : await startSandbox(dataFile, {}, c.root, c.name, [], true);
      const spawnedAt = performance.now() - server.readyMs;
      let timed: Timed[];
      let repeats = 0;
      let slowest: Timed = { operationId: 'none', status: 0, ms: 0 };
      try {
        if (c.afterWarmUp && !(await server.printed!(WARMED_UP_LINE, 60_000))) throw new Error(`${c.name} did not report its validators compiled`);
        timed = await callEach(server, calls);
        note(`first-call.${c.key}.rss`, `RSS after the first calls, ${c.name}`, 'MB', memoryOf(server.child.pid!).rssMb);
        ({ repeats, slowest } = await repeatCalls(server, calls, Date.now() + REPEAT_WINDOW_MS - (performance.now() - spawnedAt)));
      } finally {
        await server.stop();
      }
      note(`first-call.${c.key}.repeat-worst`, `slowest repeated call in the first ${REPEAT_WINDOW_MS / 1000} s, ${c.name}`, 'ms', slowest.ms);
      const ms = timed.map((t) => t.ms);
      const worst = timed.reduce((a, b) => (b.ms > a.ms ? b : a));
      const answered = timed.filter((t) => t.status >= 200 && t.status < 300).length;
      note(`first-call.${c.key}.median`, `first call of each operation, median, ${c.name}`, 'ms', median(ms));
      note(`first-call.${c.key}.worst`, `first call of each operation, worst, ${c.name}`, 'ms', worst.ms);
      note(`first-call.${c.key}.count`, `operations called, ${c.name}`, 'operations', timed.length);
      note(`first-call.${c.key}.2xx`, `first calls answered 2xx, ${c.name}`, 'operations', answered);
      log(
        `  round ${round}: ${c.name}: ${timed.length} operations, median ${median(ms).toFixed(1)} ms, worst ${worst.ms.toFixed(1)} ms (${worst.operationId}), ${answered} answered 2xx; ` +
          `${repeats} repeated calls until ${REPEAT_WINDOW_MS / 1000} s after the spawn, slowest ${slowest.ms.toFixed(1)} ms (${slowest.operationId})`,
      );
      const others = timed.filter((t) => t.status < 200 || t.status >= 300).map((t) => `${t.operationId} ${t.status}`);
      if (others.length) log(`    not 2xx: ${others.join(', ')}`);
    }
  }
}
