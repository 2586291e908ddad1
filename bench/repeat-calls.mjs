// The repeated calls of the first-call run (bench/first-calls.ts), made from a process of their own: the bench's own
// process holds every figure of the run and has started and stopped several servers, so its collections are longer
// than a small client's, and a call that waits behind the client's own collection is timed as the server's. This
// client keeps nothing per call but the slowest, and takes the same requests and the same connections per pass (one
// keep-alive connection, opened anew for each pass over the operations) as the first calls.
//
// Input (stdin): { "url": base URL, "token": bearer token, "until": epoch ms to stop at, "calls": [{ operationId,
// method, path, body? }] }. Output (stdout): { "repeats": n, "slowest": { operationId, status, ms } }.
import { Agent, request } from 'node:http';

const input = JSON.parse(await new Response(process.stdin).text());
const prepared = input.calls.map((call) => ({
  operationId: call.operationId,
  url: input.url + call.path,
  method: call.method,
  body: call.body,
  headers:
    call.body === undefined ? { Authorization: `Bearer ${input.token}` } : { Authorization: `Bearer ${input.token}`, 'Content-Type': 'application/json' },
}));

const slowest = { operationId: 'none', status: 0, ms: 0 };
let repeats = 0;

function send(agent, call) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(call.url, { method: call.method, headers: call.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        const ms = performance.now() - started;
        repeats++;
        if (ms > slowest.ms) Object.assign(slowest, { operationId: call.operationId, status: res.statusCode ?? 0, ms });
        resolve();
      });
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

// At least one pass, however long the first calls took.
do {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const call of prepared) await send(agent, call);
  } finally {
    agent.destroy();
  }
} while (Date.now() < input.until);

process.stdout.write(`${JSON.stringify({ repeats, slowest })}\n`);
