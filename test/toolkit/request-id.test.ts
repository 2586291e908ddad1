import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { requestIdFrom, requestIds } from '../../src/observe/request-log.js';
import { responseCacheOf } from '../../src/server.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { demo, testApp, contract } from '../helpers/app.js';
import { hostedApp } from '../hosted/support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PRODUCTS = `/2024-09/products?merchant_id=${demo.merchant}`;

describe('X-Request-Id', () => {
  it('When any kind of answer is sent, then it carries a request id', async () => {
    const t = await testApp();
    const answers = [
      await request(t.app).get(PRODUCTS).set(t.auth('owner')),
      await request(t.app).post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant }),
      await request(t.app).get(PRODUCTS),
      await request(t.app).get('/2024-09/no-such-thing').set(t.auth('owner')),
      await request(t.app).get('/_sandbox/health'),
      await request(t.app).get('/'),
      await request(t.app).get('/docs/'),
      await request(t.app).options('/2024-09/products').set('Origin', 'https://a.example').set('Access-Control-Request-Method', 'POST'),
      await request(t.app).post('/2024-09/products').set(t.auth('owner')).set('Content-Type', 'application/json').send('{bad json'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 422, 401, 404, 200, 200, 200, 204, 400]);
    for (const res of answers) expect(res.headers['x-request-id']).toMatch(UUID);
    expect(new Set(answers.map((r) => r.headers['x-request-id'])).size).toBe(answers.length);
  });

  it('When the client sends a valid id, then the answer echoes it', async () => {
    const t = await testApp();
    const res = await request(t.app).get(PRODUCTS).set(t.auth('owner')).set('X-Request-Id', 'ci-run.42:step_7');
    expect(res.headers['x-request-id']).toBe('ci-run.42:step_7');
  });

  it('When the client sends an id that is too long, empty or has other characters, then a new one replaces it', async () => {
    const t = await testApp();
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', '<script>', 'é']) {
      const res = await request(t.app).get(PRODUCTS).set(t.auth('owner')).set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    expect(requestIdFrom({ 'x-request-id': '' }, () => 'new')).toBe('new');
    expect(requestIdFrom({ 'x-request-id': 'x'.repeat(128) }, () => 'new')).toBe('x'.repeat(128));
  });

  it('When a sequence makes many ids, then each is a UUID, none repeats, and another sequence shares no prefix with it', () => {
    const one = requestIds();
    const made = Array.from({ length: 5000 }, () => one());
    for (const id of made) expect(id).toMatch(UUID);
    expect(new Set(made).size).toBe(made.length);
    const prefix = (id: string) => id.slice(0, 24);
    expect(new Set(made.map(prefix)).size).toBe(1);
    expect(prefix(requestIds()())).not.toBe(prefix(made[0]!));
  });

  it('When two apps answer, then their new ids differ', async () => {
    const [a, b] = [await testApp(), await testApp()];
    const ids = [
      (await request(a.app).get(PRODUCTS).set(a.auth('owner'))).headers['x-request-id'],
      (await request(b.app).get(PRODUCTS).set(b.auth('owner'))).headers['x-request-id'],
    ];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('When the sandbox is hosted, then consecutive new ids share no counter: a reader cannot count the requests others made between two of theirs', async () => {
    const { app } = await hostedApp();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await request(app).get('/_sandbox/health').expect(200)).headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids.map((id) => id.slice(0, 24))).size).toBe(ids.length);
  });

  it('When a request is journaled, then its entry id is the answer’s request id', async () => {
    const t = await testApp();
    const mine = await request(t.app).get(PRODUCTS).set(t.auth('owner')).set('X-Request-Id', 'client-id-1');
    const made = await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'));
    const journal = await request(t.app).get('/_sandbox/requests').set(t.auth('owner')).expect(200);
    const ids = journal.body.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(mine.headers['x-request-id']);
    expect(ids).toContain(made.headers['x-request-id']);
  });
});

describe('X-Request-Id and the log line on cached answers', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('When an answer comes from the cache, then it has its own id, the client’s if valid, and the journal entry has it too', async () => {
    sandbox = await startSandbox({ contract, store: 'memory', logLevel: 'silent' });
    const get = (headers: Record<string, string> = {}) =>
      fetch(sandbox!.url + PRODUCTS, { headers: { Authorization: `Bearer ${demo.owner.token}`, ...headers } });
    const first = await get();
    const second = await get();
    const third = await get({ 'X-Request-Id': 'cached-echo' });
    expect(responseCacheOf(sandbox.server)!.stats.hits).toBe(2);
    expect(second.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(third.headers.get('x-request-id')).toBe('cached-echo');
    const journal = sandbox.observations.journal.list({ path: '/2024-09/products' }).map((e) => e.id);
    expect(journal).toEqual([third, second, first].map((r) => r.headers.get('x-request-id')));
  });

  it('When an answer comes from the cache, then its log line has the fields of the computed one and its own request id', async () => {
    const lines: string[] = [];
    sandbox = await startSandbox({ contract, store: 'memory', logLevel: 'info', requestLog: (line) => lines.push(line) });
    const get = () => fetch(sandbox!.url + PRODUCTS, { headers: { Authorization: `Bearer ${demo.owner.token}` } });
    const ids = [(await get()).headers.get('x-request-id'), (await get()).headers.get('x-request-id')];
    expect(responseCacheOf(sandbox.server)!.stats.hits).toBe(1);
    const [computed, replayed] = lines.map((line) => JSON.parse(line));
    expect([computed.request_id, replayed.request_id]).toEqual(ids);
    const same = ({ time: _time, duration_ms: _duration, request_id: _id, ...rest }: Record<string, unknown>) => rest;
    expect(same(replayed)).toEqual(same(computed));
    expect(computed).toMatchObject({ level: 'info', msg: 'request', method: 'GET', operation_id: 'listProducts', status: 200, workspace: 'default' });
  });
});
