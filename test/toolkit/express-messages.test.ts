import { once } from 'node:events';
import { createServer, IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressMessages } from '../../src/http/express-messages.js';

let server: Server | undefined;
afterEach(async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** An Express app behind a node:http server built with expressMessages; answers what the handler saw. */
async function serve() {
  const app = express();
  const seen: { request: boolean; response: boolean }[] = [];
  // Read before Express's own middleware runs: the prototypes the messages were born with.
  const born = (req: object, res: object) => ({ request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response });
  app.get('/hello', (req, res) => res.status(200).json({ hello: req.query.name ?? 'world' }));
  server = createServer(expressMessages(app), (req, res) => {
    seen.push(born(req, res));
    app(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('requests and responses born with the app prototypes', () => {
  it('When a request arrives, then its request and response already have the app prototypes before Express sees them', async () => {
    const { url, seen } = await serve();
    await (await fetch(`${url}/hello`)).arrayBuffer();
    expect(seen).toEqual([{ request: true, response: true }]);
  });

  it('When Express answers through them, then its request and response methods work as on a plain server', async () => {
    const { url } = await serve();
    const res = await fetch(`${url}/hello?name=ada`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ hello: 'ada' });
  });

  it('When a route is unknown, then Express answers its 404 through the same messages', async () => {
    const { url } = await serve();
    const res = await fetch(`${url}/nowhere`);
    expect(res.status).toBe(404);
  });

  it('When two servers are made for one app, then both answer through its methods and prototypes', async () => {
    const app = express();
    app.get('/who', (req, res) => res.json({ app: req.app === app, path: req.path }));
    const first = expressMessages(app);
    const second = expressMessages(app);
    // Compared by identity: printing a prototype would run Express's accessors without a request.
    expect(Object.getPrototypeOf(app.request) === IncomingMessage.prototype).toBe(true);
    expect(second.IncomingMessage.prototype === app.request).toBe(true);
    expect(first.IncomingMessage.prototype === app.request).toBe(false);
    server = createServer(second, app);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/who`);
    expect(await res.json()).toEqual({ app: true, path: '/who' });
  });
});
