import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { contract, demo, testApp, type TestApp } from '../helpers/app.js';
import { aProduct, aSupplier } from '../helpers/builders.js';
import type { components } from '../../src/contract/document/generated.js';
import { RequestJournal } from '../../src/observe/request-journal.js';
import { createApp } from '../../src/app.js';
import type { Handlers } from '../../src/areas/handler-map.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { handlers } from '../../src/handlers.js';
import { ok } from '../../src/http/reply.js';
import { createRuntime } from '../../src/runtime.js';
import { createServer } from '../../src/server.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';
import { freshWorld } from '../helpers/test-world.js';

type Entry = components['schemas']['SandboxRequest'];
type Trail = components['schemas']['SandboxRequestTrail'];

const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc002';
const UNKNOWN = '99999999-9999-4999-8999-999999999999';

/** The newest journal entry of the default world (what the request just made left). */
async function newest(t: TestApp): Promise<Entry> {
  const res = await request(t.app).get('/_sandbox/requests').query({ workspace: 'default', limit: 1 }).expect(200);
  return res.body.data[0] as Entry;
}

describe('the trail of a journaled request', () => {
  it('When a path names no route, then the trail says routing answered, nothing matched', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/nowhere').set(t.auth('owner')).expect(404);
    expect((await newest(t)).trail).toEqual({ answered_by: 'route', route: { matched: false }, response_check: 'not_checked' });
  });

  it('When the path exists without the method, then the trail says routing answered 405 and lists the allowed methods', async () => {
    const t = await testApp();
    await request(t.app).patch('/2024-09/merchants').set(t.auth('owner')).expect(405);
    expect((await newest(t)).trail).toEqual({ answered_by: 'route', route: { matched: false, allow: ['GET', 'HEAD', 'POST'] }, response_check: 'not_checked' });
  });

  it('When the token is missing, then the trail says authentication answered 401, with the operation in /docs', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').expect(401);
    expect((await newest(t)).trail).toEqual({
      answered_by: 'authentication',
      route: { matched: true },
      response_check: 'not_checked',
      docs_anchor: '#/Merchants/listMerchants',
    });
  });

  it('When the supplier a path names does not exist, then the trail names the record: parameter supplier, its id, unknown', async () => {
    const t = await testApp();
    await request(t.app).get(`/2024-09/suppliers/${UNKNOWN}`).set(t.auth('owner')).expect(404);
    const { trail } = await newest(t);
    expect(trail).toMatchObject({
      answered_by: 'record',
      record: { parameter: 'supplier', id: UNKNOWN, outcome: 'unknown' },
      docs_anchor: '#/Sourcing/getSupplier',
    });
  });

  it('When the supplier belongs to another merchant, then 403 and the trail names the record as not a member', async () => {
    const t = await testApp();
    const rivals = await aSupplier(t, { merchant_id: demo.rivalMerchant });
    await request(t.app).get(`/2024-09/suppliers/${rivals.id}`).set(t.auth('owner')).expect(403);
    expect((await newest(t)).trail).toMatchObject({ answered_by: 'record', record: { parameter: 'supplier', id: rivals.id, outcome: 'not_member' } });
  });

  it('When a merchant_id in the body names a merchant of someone else, then the trail names merchant_id as not a member', async () => {
    const t = await testApp();
    await request(t.app)
      .post('/2024-09/suppliers')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.rivalMerchant, name: 'X', default_currency: 'EUR' })
      .expect(403);
    expect((await newest(t)).trail?.record).toEqual({ parameter: 'merchant_id', id: demo.rivalMerchant, outcome: 'not_member' });
  });

  it('When the input breaks the contract, then each field error stands beside the value sent and the rule with its bound', async () => {
    const t = await testApp();
    const res = await request(t.app)
      .post('/2024-09/suppliers')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, name: '', default_currency: 'eur' })
      .expect(422);
    const { trail } = await newest(t);
    expect(trail?.answered_by).toBe('validation');
    expect(trail?.response_check).toBe('not_checked');
    const errors = trail?.field_errors ?? [];
    const byField = Object.fromEntries(errors.map((e) => [e.field, e]));
    expect(byField['body.name']).toMatchObject({ value: '', rule: { keyword: 'minLength', params: { limit: 1 } } });
    expect(byField['body.default_currency']).toMatchObject({ value: 'eur', rule: { keyword: 'pattern', params: { pattern: '^[A-Z]{3}$' } } });
    // The trail's messages are the answer's own.
    expect(errors.map((e) => e.message).sort()).toEqual(
      Object.values(res.body.errors as Record<string, string[]>)
        .flat()
        .sort(),
    );
  });

  it('When a query parameter is out of bounds or of the wrong type, then its field error names query.<name>, the value and the bound', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').query({ per_page: 0 }).set(t.auth('owner')).expect(422);
    const perPage = (await newest(t)).trail?.field_errors?.find((e) => e.field === 'query.per_page');
    expect(perPage?.rule).toEqual({ keyword: 'minimum', params: { limit: 1 } });
    expect(String(perPage?.value)).toBe('0');
    await request(t.app).get('/2024-09/merchants').query({ per_page: 'many' }).set(t.auth('owner')).expect(422);
    const typed = (await newest(t)).trail?.field_errors?.find((e) => e.field === 'query.per_page');
    expect(typed).toMatchObject({ value: 'many', rule: { keyword: 'type', params: { type: 'integer' } } });
  });

  it('When a value is not one of the allowed values, then the rule lists them', async () => {
    const t = await testApp();
    await request(t.app).post('/2024-09/channels').set(t.auth('owner')).send({ merchant_id: demo.merchant, name: 'Shop', type: 'bazaar' }).expect(422);
    const type = (await newest(t)).trail?.field_errors?.find((e) => e.field === 'body.type');
    expect(type).toMatchObject({ value: 'bazaar', rule: { keyword: 'enum', params: { allowedValues: ['retailer'] } } });
  });

  it('When a required field is missing, then its field error names the missing property and carries no value', async () => {
    const t = await testApp();
    await request(t.app).post('/2024-09/suppliers').set(t.auth('owner')).send({ merchant_id: demo.merchant, default_currency: 'EUR' }).expect(422);
    const name = (await newest(t)).trail?.field_errors?.find((e) => e.field === 'body.name');
    expect(name).toMatchObject({ rule: { keyword: 'required', params: { missingProperty: 'name' } } });
    expect(name).not.toHaveProperty('value');
  });

  it('When Prefer: code= forces the answer, then the trail says the knobs answered and which', async () => {
    const t = await testApp();
    await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).set('Prefer', 'code=404').expect(404);
    expect((await newest(t)).trail).toMatchObject({ answered_by: 'prefer', prefer: { code: 404, applied: 'code=404' }, response_check: 'passed' });
  });

  it('When a Prefer knob is refused, then the trail says the knobs answered 422 and why', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'code=299').expect(422);
    const { trail } = await newest(t);
    expect(trail).toMatchObject({ answered_by: 'prefer', prefer: { code: 299 } });
    expect(trail?.field_errors?.[0]?.field).toBe('Prefer.code');
  });

  it('When the handler answers, then the trail says the handler answered and the answer passed its check against the contract', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'delay=0').expect(200);
    expect((await newest(t)).trail).toEqual({
      answered_by: 'handler',
      route: { matched: true },
      prefer: { delay: 0, applied: 'delay=0' },
      response_check: 'passed',
      docs_anchor: '#/Merchants/listMerchants',
    });
  });

  it('When the handler refuses by its own rule, then the trail says the handler answered, the refusal checked like any answer', async () => {
    const t = await testApp();
    const product = await aProduct(t);
    await request(t.app).post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant, sku: product.sku, title: 'Again' }).expect(422);
    const { trail } = await newest(t);
    expect(trail).toMatchObject({ answered_by: 'handler', response_check: 'passed' });
    expect(trail?.field_errors?.[0]).toMatchObject({ field: 'sku', value: product.sku });
  });

  it("When the handler's answer breaks the contract, then 500 and the trail says the response check answered, failed", async () => {
    const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'silent' };
    const worlds = new Worlds(freshWorld(config.seed), worldsOptions(config));
    const runtime = createRuntime({ worlds, config, contract, log: () => {} });
    const broken = (() => ok({ data: { id: 'not a merchant' } })) as unknown as Handlers['getMerchant'];
    const app = createServer(runtime, createApp(runtime, { ...handlers, getMerchant: broken }));
    await request(app)
      .get(`/2024-09/merchants/${demo.merchant}`)
      .set({ Authorization: `Bearer ${demo.owner.token}` })
      .expect(500);
    const [entry] = runtime.observations.journal.list({ limit: 1 });
    expect(entry?.trail).toMatchObject({ answered_by: 'response_check', response_check: 'failed', docs_anchor: '#/Merchants/getMerchant' });
  });

  it('When a replayed answer is served, then its entry carries the same trail as the computed one', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    const computed = (await newest(t)).trail;
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    expect(t.cache.stats.hits).toBeGreaterThan(0);
    expect((await newest(t)).trail).toEqual(computed);
  });

  it('When a workspace is created, then its entry has a trail, its answer checked against the contract like any other', async () => {
    const t = await testApp();
    await request(t.app).post('/_sandbox/workspaces').expect(201);
    const list = await request(t.app).get('/_sandbox/requests').query({ operation_id: 'createSandboxWorkspace' }).expect(200);
    expect(list.body.data[0].trail).toEqual({
      answered_by: 'handler',
      route: { matched: true },
      response_check: 'passed',
      docs_anchor: '#/Sandbox/createSandboxWorkspace',
    });
  });

  it('When a body is past the limit, then the trail says a limit answered', async () => {
    const t = await testApp({ bodyLimit: 1024 });
    await request(t.app)
      .post('/2024-09/suppliers')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, name: 'x'.repeat(4096), default_currency: 'EUR' })
      .expect(413);
    expect((await newest(t)).trail?.answered_by).toBe('limit');
  });
});

describe('the trail within the journal limits', () => {
  it('When a secret field breaks the contract, then its value never appears in the journal, in the trail or elsewhere', async () => {
    const t = await testApp();
    const secret = 'SECRET-VALUE-'.repeat(400);
    await request(t.app)
      .post(`/2024-09/channels/retailer/${CHANNEL}/connection-data`)
      .set(t.auth('owner'))
      .send({ access_token: secret, refresh_token: 424242 })
      .expect(422);
    const list = await request(t.app).get('/_sandbox/requests').expect(200);
    expect(list.text).not.toContain('SECRET-VALUE');
    expect(list.text).not.toContain('424242');
    const errors = (list.body.data[0] as Entry).trail?.field_errors ?? [];
    expect(errors.map((e) => e.field).sort()).toEqual(['body.access_token', 'body.refresh_token']);
    for (const error of errors) expect(error.value).toBe('[REDACTED]');
  });

  it("When trails carry field errors, then the journal counts their bytes in the workspace's ring and drops by them", () => {
    const input = { method: 'POST', path: '/2024-09/suppliers', status: 422, durationMs: 1, requestBody: { name: '' } };
    const trail: Trail = {
      answered_by: 'validation',
      route: { matched: true },
      field_errors: Array.from({ length: 40 }, (_, i) => ({
        field: `body.costs.${i}.value`,
        message: 'The field must be >= 0.',
        value: -1 - i,
        rule: { keyword: 'minimum', params: { limit: 0 } },
      })),
      response_check: 'not_checked',
    };
    const bare = new RequestJournal();
    bare.record(input);
    const traced = new RequestJournal();
    traced.record({ ...input, trail });
    const kept = traced.list()[0]!.trail;
    expect(kept).toEqual(trail);
    expect(traced.bytesOf('default') - bare.bytesOf('default')).toBe(`,"trail":${JSON.stringify(kept)}`.length);
    // A ring bounded to about two such entries keeps two, not three.
    const small = new RequestJournal({ maxWorkspaceBytes: 2 * traced.bytesOf('default') + 10 });
    for (let i = 0; i < 3; i++) small.record({ ...input, trail });
    expect(small.size).toBe(2);
  });

  it('When a trail comes from a loaded bundle with oversized texts and a secret path, then the journal keeps it within the bounds, redacted', () => {
    const journal = new RequestJournal();
    const trail: Trail = {
      answered_by: 'validation',
      route: { matched: true },
      record: { parameter: 'supplier', id: 'i'.repeat(5000), outcome: 'unknown' },
      field_errors: Array.from({ length: 150 }, () => ({ field: 'body.credentials.password', message: 'm'.repeat(5000), value: 'hunter2' })),
      response_check: 'not_checked',
    };
    journal.record({ method: 'POST', path: '/x', status: 422, durationMs: 1, trail, loaded: { requestTruncated: false, responseTruncated: false } });
    const kept = journal.list()[0]!.trail!;
    expect(kept.record?.id.length).toBe(1024);
    expect(kept.field_errors).toHaveLength(100);
    expect(kept.field_errors?.[0]?.message.length).toBe(2048);
    expect(JSON.stringify(kept)).not.toContain('hunter2');
  });
});
