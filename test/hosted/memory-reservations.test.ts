// Memory counted before it is spent (issue 31, item 4): a bundle's load, an upload into a live workspace and an
// export each reserve their share of the memory budget before a byte is read or built, and loads and exports are
// capped in flight. Work in flight is stood in for by reservations the test holds.
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { configFromOptions, DEFAULT_HEAP_BUDGET_PERCENT } from '../../src/config.js';
import { parseArgs } from '../../src/cli/parse-args.js';
import { MemoryBudget, MemoryRefused } from '../../src/memory-reservations.js';
import { bodyBytesAtMost, LOAD_BYTES_PER_BUNDLE_BYTE, loadsCap } from '../../src/pipeline/body-budget.js';
import { memoryReading } from '../helpers/memory-reading.js';
import { exported, PNG } from '../bundle/session.js';
import { bearer, hostedApp, newWorkspace } from './support.js';

const MiB = 2 ** 20;
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** A gauge the test moves: a 1 GiB old space, `held` bytes of it in use. */
function gauge() {
  const reading = memoryReading({ oldGenerationLimit: 1024 * MiB });
  return { reading, memory: () => reading, leave: (room: number) => void (reading.oldGeneration = (DEFAULT_HEAP_BUDGET_PERCENT / 100) * 1024 * MiB - room) };
}

describe('the memory budget of loads, uploads and exports', () => {
  it('When as many loads as BUNDLE_LOADS_IN_FLIGHT are in flight, then one more answers 503 with Retry-After, nothing is created, and it loads once they are done', async () => {
    const t = await hostedApp({ bundleLoadsInFlight: 2 });
    const ws = await newWorkspace(t.app);
    const bundle = await exported({ app: t.app } as never, { id: ws.id, tokens: ws.tokens });
    const held = [0, 1].map(() => t.worlds.budget.reserve({ bytes: 0, caps: [loadsCap({ bundleLoadsInFlight: 2 })] }, { memory: '' }));
    const count = t.worlds.workspaceCount;
    const res = await request(t.app).post('/_sandbox/workspaces').send(bundle).expect(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toBe('Bundle loads are in flight (at most 2 at once); retry in a few seconds.');
    expect(t.worlds.workspaceCount).toBe(count);
    for (const r of held) r.release();
    await request(t.app).post('/_sandbox/workspaces').send(bundle).expect(201);
    await vi.waitFor(() => expect(t.worlds.budget.reserved).toBe(0));
  });

  it('When the budget cannot hold five times a bundle body, then its load answers 503 before the body is read, while a plain creation still answers 201', async () => {
    const g = gauge();
    const t = await hostedApp({}, { memory: g.memory });
    const ws = await newWorkspace(t.app);
    const bundle = JSON.stringify(await exported({ app: t.app } as never, { id: ws.id, tokens: ws.tokens }));
    g.leave((LOAD_BYTES_PER_BUNDLE_BYTE - 1) * bundle.length);
    const count = t.worlds.workspaceCount;
    const res = await request(t.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(bundle).expect(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toBe('The sandbox is short of memory to load this bundle; retry later, or load a smaller one.');
    expect(t.worlds.workspaceCount).toBe(count);
    await request(t.app).post('/_sandbox/workspaces').expect(201);
    g.leave((LOAD_BYTES_PER_BUNDLE_BYTE + 1) * bundle.length);
    await request(t.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(bundle).expect(201);
  });

  it('When a gzip body or one without a length comes, then it counts as BUNDLE_MAX_BYTES, the most it may inflate to; a plain one counts its Content-Length', () => {
    const limit = 8 * MiB;
    expect(bodyBytesAtMost({ 'content-length': '1000' }, limit)).toBe(1000);
    expect(bodyBytesAtMost({ 'content-length': String(gzipSync('{}').length), 'content-encoding': 'gzip' }, limit)).toBe(limit);
    expect(bodyBytesAtMost({ 'transfer-encoding': 'chunked' }, limit)).toBe(limit);
    expect(bodyBytesAtMost({ 'content-length': String(64 * MiB) }, limit)).toBe(limit);
  });

  it('When the budget is short, then an upload into a live workspace answers 503 with Retry-After and stores nothing; with room again it answers 201', async () => {
    const g = gauge();
    const t = await hostedApp({}, { memory: g.memory });
    const ws = await newWorkspace(t.app);
    const product = (await request(t.app).get(`/2024-09/products?merchant_id=${MERCHANT}&per_page=1`).set(bearer(ws.tokens.owner)).expect(200)).body.data[0].id;
    const images = async () => (await request(t.app).get(`/2024-09/products/${product}/images`).set(bearer(ws.tokens.owner)).expect(200)).body.data.length;
    const before = await images();
    g.leave(64);
    const upload = () =>
      request(t.app)
        .post(`/2024-09/products/${product}/images`)
        .set(bearer(ws.tokens.owner))
        .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
    const res = await upload().expect(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toBe('The sandbox is short of memory for this upload; retry later.');
    expect(await images()).toBe(before);
    g.leave(MiB);
    await upload().expect(201);
    expect(await images()).toBe(before + 1);
  });

  it('When an upload names its media type in upper case, then it is an upload all the same: reserved for (503 when the budget is short), then stored', async () => {
    const g = gauge();
    const t = await hostedApp({}, { memory: g.memory });
    const ws = await newWorkspace(t.app);
    const product = (await request(t.app).get(`/2024-09/products?merchant_id=${MERCHANT}&per_page=1`).set(bearer(ws.tokens.owner)).expect(200)).body.data[0].id;
    // A multipart body written by hand, as a client that spells the media type its own way sends it.
    const boundary = 'sandbox-boundary-7f3a';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = () =>
      request(t.app)
        .post(`/2024-09/products/${product}/images`)
        .set(bearer(ws.tokens.owner))
        .set('Content-Type', `MULTIPART/Form-Data; boundary=${boundary}`)
        .send(body);
    g.leave(64);
    expect((await upload()).status).toBe(503);
    g.leave(MiB);
    const stored = await upload();
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
  });

  it('When an export of a workspace is in flight, then another of it answers 503; at BUNDLE_EXPORTS_IN_FLIGHT another workspace waits too', async () => {
    const t = await hostedApp({ bundleExportsInFlight: 2 });
    const [a, b, c] = [await newWorkspace(t.app), await newWorkspace(t.app), await newWorkspace(t.app)];
    const exportOf = (ws: { id: string; tokens: { owner: string } }) => request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner));
    const ofA = t.worlds.budget.reserve(
      { bytes: 0, caps: [{ key: `bundle export of ${a.id}`, max: 1, what: `Exports of workspace ${a.id}` }] },
      { memory: '' },
    );
    const res = await exportOf(a).expect(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toBe(`Exports of workspace ${a.id} are in flight (at most 1 at once); retry in a few seconds.`);
    await exportOf(b).expect(200);
    // Its reservation is let go once the server has sent the last byte, which the client may read first.
    await vi.waitFor(() => expect(t.worlds.budget.reserved).toBe(0));
    const two = [0, 1].map(() => t.worlds.budget.reserve({ bytes: 0, caps: [{ key: 'bundle exports', max: 2, what: 'Exports' }] }, { memory: '' }));
    expect((await exportOf(c).expect(503)).body.message).toBe('Exports are in flight (at most 2 at once); retry in a few seconds.');
    for (const r of [ofA, ...two]) r.release();
    await exportOf(a).expect(200);
    await vi.waitFor(() => expect(t.worlds.budget.reserved).toBe(0));
  });

  it('When a world holds more uploads than BUNDLE_MAX_BYTES takes in base64, then its export answers 413 from the counted bytes, before a bundle is built', async () => {
    const t = await hostedApp({ bundleMaxBytes: MiB });
    const ws = await newWorkspace(t.app);
    const product = (await request(t.app).get(`/2024-09/products?merchant_id=${MERCHANT}&per_page=1`).set(bearer(ws.tokens.owner)).expect(200)).body.data[0].id;
    const image = Buffer.concat([PNG, Buffer.alloc(800 * 1024)]);
    await request(t.app)
      .post(`/2024-09/products/${product}/images`)
      .set(bearer(ws.tokens.owner))
      .attach('file', image, { filename: 'big.png', contentType: 'image/png' })
      .expect(201);
    const res = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner)).expect(413);
    expect(res.body.message).toBe(
      "The workspace's bundle would be larger than 1 MiB (BUNDLE_MAX_BYTES); delete records or uploads, or raise BUNDLE_MAX_BYTES.",
    );
    expect(t.worlds.budget.reserved).toBe(0);
  });

  it('When the budget refuses, then it throws MemoryRefused saying why; a released reservation frees its bytes and its slot once, however often it is released', () => {
    const budget = new MemoryBudget(() => memoryReading({ oldGeneration: 50 }), 85);
    const cap = { key: 'k', max: 1, what: 'Things' };
    const r = budget.reserve({ bytes: 30, caps: [cap] }, { memory: 'no room' });
    expect(budget.reserved).toBe(30);
    expect(() => budget.reserve({ bytes: 0, caps: [cap] }, { memory: 'no room' })).toThrow(expect.objectContaining({ reason: 'busy' }));
    expect(() => budget.reserve({ bytes: 10 }, { memory: 'no room' })).toThrow(new MemoryRefused('memory', 'no room', 30));
    r.release();
    r.release();
    expect(budget.reserved).toBe(0);
    budget.reserve({ bytes: 35, caps: [cap] }, { memory: 'no room' });
  });

  it('When HOSTED=1 leaves BUNDLE_MAX_BYTES unset, then it is 8 MiB, the shipped edge body limit; set, it is what was set; locally 32 MiB', () => {
    const parsed = parseArgs([]);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const hosted = { HOSTED: '1', SANDBOX_ADMIN_TOKEN: '5c2f0e8a9b7d4c31a6e2f08b9d7c4e15', PUBLIC_URL: 'https://sandbox.example.test' };
    expect(configFromOptions(parsed.options, hosted).config.bundleMaxBytes).toBe(8 * MiB);
    expect(configFromOptions(parsed.options, { ...hosted, BUNDLE_MAX_BYTES: String(16 * MiB) }).config.bundleMaxBytes).toBe(16 * MiB);
    expect(configFromOptions(parsed.options, {}).config.bundleMaxBytes).toBe(32 * MiB);
    expect(configFromOptions(parsed.options, { BUNDLE_LOADS_IN_FLIGHT: '0' }).errors).toEqual([
      "BUNDLE_LOADS_IN_FLIGHT must be an integer from 1 to 64, got '0'",
    ]);
  });
});
