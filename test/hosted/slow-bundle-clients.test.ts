// Loads and exports are parsed, checked and built two at a time (src/http/heavy-lanes.ts). A lane is held for that
// work only: clients that send a bundle's body slowly, more of them than there are lanes, hold none, so other
// loads and exports go on.
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { HEAVY_LANES } from '../../src/http/heavy-lanes.js';
import { emptyBundle } from '../bundle/hostile-bundles.js';
import { bearer, hostedApp, newWorkspace } from './support.js';

const portOf = (app: unknown) => ((app as Server).address() as { port: number }).port;

/** A load whose client sends the headers and a first part of its body, then stops sending. */
function stalledLoad(port: number, body: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /_sandbox/workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 100)}`,
        () => resolve(socket),
      );
    });
    socket.on('error', reject);
  });
}

describe('slow bundle clients hold no lane (hosted)', () => {
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  it('When more clients than there are lanes stop sending their bundles halfway, then another load answers 201 and an export 200', async () => {
    const stalled = HEAVY_LANES + 1;
    const t = await hostedApp({ bundleLoadsInFlight: stalled + 1, workspaceCreatePerMinute: 1000 });
    const bundle = JSON.stringify(await emptyBundle(t.app));
    for (let i = 0; i < stalled; i++) sockets.push(await stalledLoad(portOf(t.app), bundle));
    const loaded = await request(t.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(bundle);
    expect(loaded.status, loaded.text.slice(0, 300)).toBe(201);
    const ws = await newWorkspace(t.app);
    const exported = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner));
    expect(exported.status, exported.text.slice(0, 300)).toBe(200);
  }, 30_000);
});
