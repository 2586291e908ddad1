// A client that exports its workspace, waits for the whole bundle, then exports it again, is not exporting twice at
// once: the second export is admitted. Over a kept-alive connection the next request can arrive as soon as the last
// byte of the first is read, so the first export's hold on its workspace must be let go by then.
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { hostedApp, newWorkspace } from './support.js';

/**
 * The client, in a thread of its own as a client is in a process of its own (in the server's thread, it would only
 * read an answer once the server's turn is over): `count` exports one after another through Node's global agent,
 * which keeps the connection alive between them. Posts back the statuses.
 */
const CLIENT = `
const { request } = require('node:http');
const { parentPort, workerData: { url, token, count } } = require('node:worker_threads');
const once = () => new Promise((resolve, reject) => {
  request(url, { headers: { Authorization: 'Bearer ' + token } }, (res) => res.resume().once('end', () => resolve(res.statusCode)))
    .once('error', reject).end();
});
(async () => { const statuses = []; for (let i = 0; i < count; i++) statuses.push(await once()); parentPort.postMessage(statuses); })();
`;

function exportsOneAfterAnother(url: string, token: string, count: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: { url, token, count } });
    worker.once('message', (statuses: number[]) => (resolve(statuses), void worker.terminate()));
    worker.once('error', reject);
  });
}

describe('exports of one workspace one after another', () => {
  it('When a client exports its workspace again as soon as each bundle has arrived, on one kept-alive connection, then every export answers 200', async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    const { port } = t.app.address() as AddressInfo;
    const statuses = await exportsOneAfterAnother(`http://127.0.0.1:${port}/_sandbox/workspaces/${ws.id}/export`, ws.tokens.owner, 60);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
