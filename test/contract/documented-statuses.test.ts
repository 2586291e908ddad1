import { describe, expect, it } from 'vitest';
import { contractOperations, deref, exampleRequest, jsonBodyOf, methodsOfPath, paramsOf } from '../helpers/contract-requests.js';
import { testApp } from '../helpers/app.js';

const PROBE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const OVERSIZED = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 16) });
const takesBody = (op: (typeof contractOperations)[number]) => op.operation.requestBody !== undefined;

describe('The contract lists the transport statuses on every operation', () => {
  it('When an operation is read, then it documents 405 and 422, and 400, 413, 415 and 503 (short of memory for what it carries) when it takes a body', () => {
    const missing: string[] = [];
    for (const op of contractOperations) {
      const expected = [405, 422, ...(takesBody(op) ? [400, 413, 415, 503] : [])];
      for (const status of expected) if (!op.statuses.includes(status)) missing.push(`${op.operationId} ${status}`);
    }
    expect(missing).toEqual([]);
  });

  it('When a 405 is documented, then it documents the Allow header', () => {
    const withoutAllow = contractOperations
      .map((op) => ({ op, response: deref(op.operation.responses?.['405'] as { headers?: Record<string, unknown> }) }))
      .filter(({ response }) => !response?.headers?.Allow)
      .map(({ op }) => op.operationId);
    expect(withoutAllow).toEqual([]);
  });
});

describe('Every status the server answers is one the operation documents', () => {
  for (const op of contractOperations) {
    it(`When ${op.operationId} gets malformed JSON, a wrong media type, an oversized body, another method or a bad typed parameter, then every answer is documented`, async () => {
      // The bundle limit (a workspace creation's body) as low as the body limit, so the one probe passes both.
      const t = await testApp({ bundleMaxBytes: 1024 * 1024 });
      const answers: Record<string, number> = {};
      const send = exampleRequest.bind(null, t.app, op);
      answers.malformed = (await send().set('Content-Type', 'application/json').send('{"name":')).status;
      answers.mediaType = (await send().set('Content-Type', 'text/plain').send('name=x')).status;
      answers.oversized = (await send().set('Content-Type', 'application/json').send(OVERSIZED)).status;
      if (paramsOf(op).some((p) => p.name === 'per_page')) answers.perPage = (await send({ per_page: 'abc' })).status;
      if (op.path.startsWith('/2024-09/')) answers.prefer = (await send().set('Prefer', 'code=abc')).status;

      const allowed = methodsOfPath(op.path);
      const other = PROBE_METHODS.find((method) => !allowed.includes(method))!;
      const wrong = await send({}, other);
      answers.otherMethod = wrong.status;

      const undocumented = Object.entries(answers).filter(([, status]) => !op.statuses.includes(status));
      expect(undocumented, `${op.operationId} documents ${op.statuses.join(', ')}`).toEqual([]);
      expect(wrong.status).toBe(405);
      // A path read with GET is read with HEAD too.
      const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
      expect(wrong.headers.allow?.split(', ').sort()).toEqual([...allow].sort());
      if (takesBody(op)) expect([answers.malformed, answers.mediaType, answers.oversized]).toEqual([400, 415, 413]);
      expect(t.errors).toEqual([]);
    });
  }

  it('When a JSON body is sent to an operation that takes none, then it is not read, malformed or oversized', async () => {
    const t = await testApp();
    const op = contractOperations.find((o) => o.operationId === 'getMerchant')!;
    expect(jsonBodyOf(op)).toBeUndefined();
    await exampleRequest(t.app, op).set('Content-Type', 'application/json').send('{"name":').expect(200);
    await exampleRequest(t.app, op).set('Content-Type', 'application/json').send(OVERSIZED).expect(200);
  });

  it("When a method the path does not have is used, then Allow lists the path's methods, GET first, HEAD beside it", async () => {
    const t = await testApp();
    const op = contractOperations.find((o) => o.operationId === 'listMerchants')!;
    const res = await exampleRequest(t.app, op, {}, 'PATCH').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body).toEqual({ message: 'The PATCH method is not supported for route /2024-09/merchants.' });
  });

  it('When Prefer: code=405 is asked for, then the answer carries Allow like a real 405', async () => {
    const t = await testApp();
    const op = contractOperations.find((o) => o.operationId === 'getMerchant')!;
    const res = await exampleRequest(t.app, op).set('Prefer', 'code=405').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, PUT, DELETE');
  });
});
