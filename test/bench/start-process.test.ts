import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { accepts, freePort, startProcess, type Running } from '../../bench/servers.js';

// How the benchmark waits for a server it started (bench/servers.ts): connects until the port accepts, then asks the
// probe until it answers 200; the time to that 200 is the start-up it reports.
const running: Running[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

/** A node -e server that listens after `listenAfterMs` and answers 503 to its first `busy` requests, then 200 with how many it saw. */
const lateServer = (port: number, listenAfterMs: number, busy = 0) => `
  let seen = 0;
  const server = require('node:http').createServer((req, res) => {
    seen++;
    res.statusCode = seen <= ${busy} ? 503 : 200;
    res.end(JSON.stringify({ seen, path: req.url, auth: req.headers.authorization ?? null }));
  });
  setTimeout(() => server.listen(${port}, '127.0.0.1'), ${listenAfterMs});
  process.on('SIGTERM', () => process.exit(0));
`;

describe("the benchmark's wait for a server it started", () => {
  it('When nothing listens on the port, then accepts answers false; when a server does, true', async () => {
    const port = await freePort();
    expect(await accepts(port)).toBe(false);
    const server = createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    expect(await accepts(port)).toBe(true);
  });

  it('When the server listens late, then the first 200 is timed from the spawn and the probe is its first request', async () => {
    const port = await freePort();
    const server = await startProcess({ name: 'late', args: ['-e', lateServer(port, 300)], port, probe: '/ready', headers: { Authorization: 'Bearer t' } });
    running.push(server);
    expect(server.readyMs).toBeGreaterThanOrEqual(300);
    const res = await fetch(`${server.url}/again`);
    // Nothing before the probe was a request (the wait only connects until the port accepts): this is its second.
    expect(await res.json()).toEqual({ seen: 2, path: '/again', auth: null });
  });

  it('When the server listens but answers 503 at first, then it is asked again until it answers 200', async () => {
    const port = await freePort();
    const server = await startProcess({ name: 'busy', args: ['-e', lateServer(port, 0, 3)], port, probe: '/ready' });
    running.push(server);
    expect(await (await fetch(`${server.url}/after`)).json()).toMatchObject({ seen: 5, path: '/after' });
  });

  it('When the server exits before it listens, then the wait fails with its exit code and what it printed', async () => {
    const port = await freePort();
    await expect(startProcess({ name: 'broken', args: ['-e', 'console.error("no config"); process.exit(3)'], port, probe: '/' })).rejects.toThrow(
      /broken exited \(3\) before answering: no config/,
    );
  });
});
