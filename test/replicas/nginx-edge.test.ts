// The edge: Debian's nginx with the deploy/nginx configuration in front of two replicas, seen from several client
// addresses on loopback (127.0.0.2, .3, ... are all this machine). One address's flood or creations must not take
// the service from another, and a token reaches its replica however Node would accept its scheme.
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EDGE_LIMITS } from '../../deploy/nginx/nginx-config.js';
import { bearerToken } from '../../src/access/auth.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithNginx, startNginx, type RunningNginx } from '../helpers/nginx.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

describeWithNginx('nginx in front of the replicas: per-address limits', () => {
  let r1: RunningSandbox;
  let r2: RunningSandbox;
  let nginx: RunningNginx;
  let port: number;

  beforeAll(async () => {
    r1 = await startSandbox({ replicaId: 'r1', trustProxy: 'loopback' });
    r2 = await startSandbox({ replicaId: 'r2', trustProxy: 'loopback' });
    // The shipped limits, but a header timeout long enough that the flood below is held for the whole test instead
    // of being cut by nginx before the other address asks (a longer hold only makes the flood harder to survive).
    nginx = await startNginx(
      [
        { id: 'r1', address: new URL(r1.url).host },
        { id: 'r2', address: new URL(r2.url).host },
      ],
      { headerTimeoutSeconds: 60 },
    );
    port = Number(new URL(nginx.url).port);
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([r1?.close(), r2?.close()]);
  });

  /** One request from a given client address, on a connection of its own. */
  function send(from: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers, localAddress: from, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Opens a connection from `from` and writes `head`, then holds it; resolves once connected. */
  function hold(from: string, head: string, held: Socket[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, localAddress: from }, () => {
        socket.write(head);
        resolve();
      });
      socket.on('error', reject);
      held.push(socket);
    });
  }

  it('When one address creates workspaces through nginx, then past the creation limit it answers 429 JSON for the whole service, in any spelling, while another address still creates', async () => {
    const made: string[] = [];
    for (let i = 0; i < EDGE_LIMITS.createPerMinute; i++) {
      const res = await send('127.0.0.2', 'POST', '/_sandbox/workspaces');
      expect(res.status).toBe(201);
      made.push((JSON.parse(res.body) as { data: { id: string } }).data.id);
    }
    // They spread over both replicas, yet the limit counted all of them.
    expect(made.some((id) => id.startsWith('r1-'))).toBe(true);
    expect(made.some((id) => id.startsWith('r2-'))).toBe(true);
    for (const path of ['/_sandbox/workspaces', '/_SANDBOX/Workspaces', '//_sandbox//workspaces/', '/_sandbox/%77orkspaces']) {
      const refused = await send('127.0.0.2', 'POST', path);
      expect(refused.status, path).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.headers['retry-after']).toBe(String(60 / EDGE_LIMITS.createPerMinute));
      expect(JSON.parse(refused.body)).toEqual({ message: expect.stringContaining('workspaces created from your address') });
    }
    // Other requests of that address are not creations and still pass.
    expect((await send('127.0.0.2', 'GET', '/_sandbox/health')).status).toBe(200);
    expect((await send('127.0.0.3', 'POST', '/_sandbox/workspaces')).status).toBe(201);
  });

  let r2Token: string | undefined;
  /** The owner token of a workspace the second replica holds (creations alternate between the replicas). */
  async function secondReplicaToken(): Promise<string> {
    for (let i = 0; i < 4 && !r2Token; i++) {
      const created = JSON.parse((await send('127.0.0.4', 'POST', '/_sandbox/workspaces')).body) as { data: { id: string; tokens: { owner: string } } };
      if (created.data.id.startsWith('r2-')) r2Token = created.data.tokens.owner;
    }
    if (!r2Token) throw new Error('no workspace landed on the second replica');
    return r2Token;
  }

  it.each([['BEARER '], ['bearer\t'], ['Bearer   '], ['bEaReR \t '], ['Bearer\u00a0'], ['Bearer'], ['Bearerx '], ['Basic '], ['Bearer \u00a0\t']])(
    'When the token of a workspace on the second replica is sent as %j, then nginx routes it there exactly when Node reads it as a bearer token',
    async (scheme) => {
      const token = await secondReplicaToken();
      const header = `${scheme}${token}`;
      // The first replica (where a request naming no replica goes) answers 401 for a workspace it does not hold, so
      // 200 means nginx found the replica; Node's own parser says whether it should have.
      const res = await send('127.0.0.5', 'GET', '/2024-09/merchants', { Authorization: header });
      expect(res.status).toBe(bearerToken(header) === token ? 200 : 401);
    },
  );

  it('When one address holds 1,500 connections that never finish their header and more slow bodies than it may, then another address is answered at once and the flooder is refused its extra requests', async () => {
    const headers: Socket[] = [];
    const bodies: Socket[] = [];
    try {
      // More half-sent headers than the old configuration's 1,024 connections; nginx cannot count them per
      // address (limit_conn counts a request once its header is in), so worker_connections must hold them.
      const flood = 1_500;
      for (let i = 0; i < flood; i += 100) {
        await Promise.all(
          Array.from({ length: Math.min(100, flood - i) }, () => hold('127.0.0.2', 'GET /_sandbox/health HTTP/1.1\r\nHost: edge\r\nX-Slow: ', headers)),
        );
      }
      // Bodies that never arrive: each holds a request of the address, so past the limit nginx answers 429.
      const extra = 20;
      const answered: string[] = [];
      for (let i = 0; i < EDGE_LIMITS.connectionsPerAddress + extra; i++) {
        await hold('127.0.0.2', 'POST /2024-09/products HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{', bodies);
        bodies.at(-1)!.once('data', (chunk: Buffer) => answered.push(chunk.toString('latin1')));
      }
      const closedByNginx = () => headers.filter((s) => s.closed || s.readableEnded).length;

      // Another address: every request answered while the flood is held.
      for (let i = 0; i < 20; i++) {
        const res = await send('127.0.0.3', 'GET', '/_sandbox/health');
        expect(res.status).toBe(200);
      }
      expect(closedByNginx()).toBe(0);

      // The flooder itself: its slow bodies beyond the limit were refused, and so is a new request while they hold.
      await expect.poll(() => answered.length, { timeout: 10_000 }).toBe(extra);
      for (const answer of answered) expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      const own = await send('127.0.0.2', 'GET', '/_sandbox/health');
      expect(own.status).toBe(429);
      expect(JSON.parse(own.body)).toEqual({ message: expect.stringContaining('at once') });
      expect(answered).toHaveLength(extra);
    } finally {
      for (const socket of [...headers, ...bodies]) socket.destroy();
    }
    // Once the flood is gone, its address is served again.
    await expect.poll(async () => (await send('127.0.0.2', 'GET', '/_sandbox/health')).status, { timeout: 10_000 }).toBe(200);
  }, 60_000);
});
