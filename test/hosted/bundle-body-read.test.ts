// A bundle's body is read and parsed apart from other JSON bodies (parsed in a turn of its own, issue 31 finding 5),
// and answers every way of sending it as the JSON parser did: another charset, text that is not JSON, `null`, a
// gzipped bundle.
import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { emptyBundle } from '../bundle/hostile-bundles.js';
import { hostedApp } from './support.js';

const create = (app: Parameters<typeof request>[0], type: string, body: string) =>
  request(app).post('/_sandbox/workspaces').set('Content-Type', type).send(body);

/** A gzipped body, sent as its bytes (supertest would serialise a Buffer under a JSON type). */
async function createGzipped(app: unknown, body: string): Promise<Response> {
  const { port } = (app as Server).address() as { port: number };
  return fetch(`http://127.0.0.1:${port}/_sandbox/workspaces`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    body: gzipSync(body),
  });
}

describe('reading a bundle body (hosted)', () => {
  it('When a bundle is sent in another charset than UTF, then 415 names it and nothing is loaded', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 100 });
    const res = await create(t.app, 'application/json; charset=latin1', '{}');
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('unsupported charset "LATIN1"');
  });

  it('When the body is not JSON, or JSON that is not an object, then 400 and 422 as for any JSON body', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 100 });
    expect((await create(t.app, 'application/json', '{"format":')).status).toBe(400);
    const text = await create(t.app, 'application/json', '"text"');
    expect(text.status).toBe(422);
    expect(text.body.errors).toEqual({ body: ['The body field must be object.'] });
    const blank = await create(t.app, 'application/json', 'null');
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual({ body: ['The body field must be object.'] });
  });

  it('When a bundle comes gzipped, in UTF-8 with its charset named, or empty as {}, then each creates a workspace', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 100 });
    const bundle = JSON.stringify(await emptyBundle(t.app));
    expect((await createGzipped(t.app, bundle)).status).toBe(201);
    expect((await create(t.app, 'application/json; charset=UTF-8', bundle)).status).toBe(201);
    expect((await create(t.app, 'application/json', '{}')).status).toBe(201);
  });
});
