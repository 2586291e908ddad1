import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { ok, type Reply } from '../../src/http/reply.js';
import { knobFacts, PREFER_IGNORED_HEADER, preferCodeStep } from '../../src/knobs/prefer-code.js';
import { parsePrefer } from '../../src/knobs/prefer-header.js';
import { contractValidator } from '../helpers/contract-schemas.js';
import { demo, testApp } from '../helpers/app.js';

describe('Prefer: code', () => {
  it('When any versioned operation is asked for any documented status, then the answer it would give validates against the contract', () => {
    const { doc } = loadContract();
    const validator = contractValidator();
    const facts = knobFacts(doc);
    const failures: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item) as [string, { operationId?: string; responses?: Record<string, { $ref?: string }> }][]) {
        if (!op?.operationId || !path.startsWith('/2024-09/')) continue;
        for (const [status, documented] of facts.get(op.operationId)!.statuses) {
          const response = op.responses![String(status)]!;
          const base = response.$ref ? response.$ref.replace('#/', '').split('/') : ['paths', path, method, 'responses', String(status)];
          const body = documented.body;
          if (body === undefined) continue;
          try {
            const errors = validator.check([...base, 'content', 'application/json', 'schema'], body);
            if (errors) failures.push(`${op.operationId} ${status}: ${JSON.stringify(errors.slice(0, 2))}`);
          } catch (error) {
            failures.push(`${op.operationId} ${status}: ${(error as Error).message}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('When a documented status is asked for, then it is answered with the contract example and Preference-Applied', async () => {
    const t = await testApp();
    const res = await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).set('Prefer', 'code=404').expect(404);
    expect(res.body).toEqual({ message: 'Merchant not found.' });
    expect(res.headers['preference-applied']).toBe('code=404');
    const list = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'code=200').expect(200);
    expect(list.body.data).toBeInstanceOf(Array);
    expect(t.errors).toEqual([]);
  });

  it('When 204 is asked for on a write, then it answers 204 with no body and changes nothing', async () => {
    const t = await testApp();
    const res = await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).set('Prefer', 'code=204').expect(204);
    expect(res.text).toBe('');
    expect(t.store.merchants.has(demo.merchant)).toBe(true);
  });

  it('When the request itself is wrong, then auth and validation still win over the knob', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/merchants').set('Prefer', 'code=200').expect(401);
    await request(t.app).get('/2024-09/merchants?per_page=0').set(t.auth('owner')).set('Prefer', 'code=200').expect(422);
  });

  it('When a status the operation does not document is asked for, then 422 naming the knob and the documented statuses', async () => {
    const t = await testApp();
    const res = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'code=503').expect(422);
    expect(res.body.errors['Prefer.code'][0]).toMatch(/listMerchants does not document status 503; documented: 200, 401, 405, 422/);
  });

  it('When a knob value is bad, then 422 naming the knob', async () => {
    const t = await testApp();
    for (const [prefer, knob] of [
      ['code=abc', 'Prefer.code'],
      ['delay=-5', 'Prefer.delay'],
      ['delay=999999', 'Prefer.delay'],
      ['retailer-fault=meltdown', 'Prefer.retailer-fault'],
    ]) {
      const res = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', prefer!);
      expect(res.status, prefer).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([knob]);
    }
  });

  it('When an operation documents no 422, then a bad or undocumented knob is ignored and said so in a header', async () => {
    // Every operation of the contract documents 422 today; a copy without it keeps this rule tested.
    const { doc } = loadContract();
    const copy = structuredClone(doc);
    const current = copy.paths['/2024-09/users/current'] as { get: { responses: Record<string, unknown> } };
    delete current.get.responses['422'];
    const step = preferCodeStep(copy);
    const handler = () => ok({ data: 'handled' });
    const knobsStep = (prefer: string) => step('getCurrentUser', parsePrefer(prefer, { maxDelayMs: 1000 }), handler) as Reply;
    const bad = knobsStep('code=abc');
    expect(bad.body).toEqual({ data: 'handled' });
    expect(bad.headers?.[PREFER_IGNORED_HEADER]).toMatch(/Prefer code.*getCurrentUser documents no 422/);
    const undocumented = knobsStep('code=418');
    expect(undocumented.body).toEqual({ data: 'handled' });
    expect(undocumented.headers?.[PREFER_IGNORED_HEADER]).toMatch(/does not document status 418/);
    expect(undocumented.headers?.['Preference-Applied']).toBeUndefined();
  });

  it('When knobs are sent to the control plane, then they do not apply: it is the harness, not the API under test', async () => {
    const t = await testApp();
    await request(t.app).get('/_sandbox/health').set('Prefer', 'code=abc, delay=-1').expect(200);
    await request(t.app).get('/_sandbox/health').set('Prefer', 'code=204').expect(200);
    expect(t.errors).toEqual([]);
  });

  it('When unknown preferences are sent, then they are ignored as RFC 7240 asks', async () => {
    const t = await testApp();
    const res = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'return=minimal, dynamic=true').expect(200);
    expect(res.headers['preference-applied']).toBeUndefined();
  });
});

describe('Prefer: delay and start-up latency', () => {
  it('When a delay is asked for, then the answer comes that much later and says so', async () => {
    const t = await testApp();
    const started = Date.now();
    const res = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'delay=150').expect(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(res.headers['preference-applied']).toBe('delay=150');
  });

  it('When the delay is over the configured bound, then 422', async () => {
    const t = await testApp({ maxDelayMs: 100 });
    const res = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'delay=101').expect(422);
    expect(res.body.errors['Prefer.delay'][0]).toMatch(/0 to 100/);
  });

  it('When a start-up latency is configured, then every answer (the control plane too) takes at least that long', async () => {
    const t = await testApp({ latencyMs: 120 });
    for (const call of [request(t.app).get('/_sandbox/health'), request(t.app).get('/2024-09/merchants').set(t.auth('owner'))]) {
      const started = Date.now();
      await call;
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    }
  });
});
