// SIGTERM as an orchestrator sends it (a rolling update, `docker stop`): the process stops taking connections at once,
// lets what it already accepted finish within SHUTDOWN_GRACE_SECONDS, closes kept-alive connections, and exits 0.
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions } from '../../src/config.js';
import { killStragglers, listening, PROCESS_TEST_TIMEOUT, spawnServer, tempStore } from './server-process.js';

/** A raw connection: what it received, and whether the server closed it. */
interface Held {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  isClosed: () => boolean;
}

async function open(url: string, request: string): Promise<Held> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let data = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
  const closedPromise = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closedPromise.then(() => (closed = true));
  socket.write(request);
  return { socket, received: () => data, closed: closedPromise, isClosed: () => closed };
}

const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: sandbox\r\nConnection: keep-alive\r\n${headers}\r\n`;
const SLOW = get('/2024-09/merchants', 'Authorization: Bearer demo-owner-token\r\nPrefer: delay=8000\r\n');

/** Resolves true once a new connection to `url` is refused. */
async function refuses(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('Shutting down on SIGTERM', () => {
  const store = tempStore();
  afterAll(() => {
    killStragglers();
    store.cleanup();
  });

  it(
    'When SIGTERM arrives while a slow request is in flight, then new connections are refused, an idle kept-alive connection is closed, the slow request still answers 200, and the process exits 0',
    async () => {
      const server = spawnServer(store.file, { STORE: 'memory' });
      const url = await listening(server);
      const idle = await open(url, get('/_sandbox/health'));
      await expect.poll(() => idle.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n\{/);
      expect(idle.received()).toMatch(/\r\nconnection: keep-alive\r\n/i);
      const slow = await open(url, SLOW);
      // Answered after the slow request was sent on an earlier connection: the server has read that one by now.
      const marker = await open(url, get('/_sandbox/health', 'Connection: close\r\n'));
      await marker.closed;
      expect(marker.received()).toMatch(/^HTTP\/1\.1 200 /);

      server.child.kill('SIGTERM');
      await expect.poll(() => refuses(url), { timeout: 5_000 }).toBe(true);
      await idle.closed;
      // Both happened while the slow request was still being served.
      expect(slow.received()).toBe('');

      await slow.closed;
      expect(slow.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(slow.received()).toContain('"data":[');
      expect(await server.exited).toBe(0);
      expect(server.stdout()).toContain('SIGTERM: no new connections; requests in flight may finish within 10 s');
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    'When a request in flight outlasts SHUTDOWN_GRACE_SECONDS, then it is dropped unanswered at the end of the grace and the process still exits 0',
    async () => {
      const server = spawnServer(store.file, { STORE: 'memory', SHUTDOWN_GRACE_SECONDS: '1' });
      const url = await listening(server);
      const slow = await open(url, SLOW);
      const marker = await open(url, get('/_sandbox/health', 'Connection: close\r\n'));
      await marker.closed;

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await slow.closed;
      expect(slow.received()).toBe('');
    },
    PROCESS_TEST_TIMEOUT,
  );

  it.each([
    ['0', 0],
    ['30', 30_000],
  ])('When SHUTDOWN_GRACE_SECONDS is %s, then the grace is %i ms', (raw, ms) => {
    const parsed = parseArgs([], {});
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(configFromOptions(parsed.options, { SHUTDOWN_GRACE_SECONDS: raw })).toEqual({
      config: expect.objectContaining({ shutdownGraceMs: ms }),
      errors: [],
    });
  });

  it('When SHUTDOWN_GRACE_SECONDS is not a whole number of seconds up to 600, then start-up names it', () => {
    const parsed = parseArgs([], {});
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(configFromOptions(parsed.options, { SHUTDOWN_GRACE_SECONDS: '601' }).errors).toEqual([
      "SHUTDOWN_GRACE_SECONDS must be an integer from 0 to 600, got '601'",
    ]);
  });
});
