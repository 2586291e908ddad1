import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getJson } from '../../bench/servers.js';

// The benchmark's one-off GETs (bench/servers.ts): a connection closed under a request is retried once.
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server that closes a kept connection under the first request sent on it again (as one closing an idle connection would), and answers the rest. */
async function closingServer(): Promise<{ url: string; served: () => number; closed: () => number }> {
  let served = 0;
  let closed = 0;
  const server = createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { answered?: boolean };
    if (socket.answered && closed === 0) return void (closed++, socket.destroy());
    socket.answered = true;
    served++;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ served }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, served: () => served, closed: () => closed };
}

describe("the benchmark's one-off GET", () => {
  it('When the reused connection is closed under the request, then it is sent again on a new one and answered', async () => {
    const t = await closingServer();
    // Which request undici sends on a kept connection is its own choice: enough of them that some are.
    for (let i = 1; i <= 6; i++) expect(await getJson<{ served: number }>(t.url)).toEqual({ served: i });
    expect(t.closed()).toBeGreaterThan(0);
  });

  it('When nothing listens, then the error is thrown as fetch throws it', async () => {
    const t = await closingServer();
    await new Promise((resolve) => servers.pop()!.close(resolve));
    await expect(getJson(t.url)).rejects.toThrow('fetch failed');
  });
});
