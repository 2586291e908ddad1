import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { ContractOperation } from '../../src/contract/document/load-contract.js';
import { contractOperations, deref, exampleRequest, jsonBodyOf, paramsOf } from '../helpers/contract-requests.js';
import { demo, testApp } from '../helpers/app.js';

const UNKNOWN_ID = '99999999-9999-4999-8999-999999999999';

type Obj = Record<string, unknown>;

function exampleOf(op: ContractOperation, status: number): Obj | undefined {
  const response = deref(op.operation.responses?.[String(status)] as Obj | undefined) as { content?: Record<string, Obj> } | undefined;
  const media = response?.content?.['application/json'] as { example?: Obj; examples?: Record<string, { value: Obj }> } | undefined;
  // Several examples: the first is the operation's own input error; the others (a workspace quota) name no field.
  return media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
}

/** The ways to name a record that does not exist: the path's ids (innermost first), merchant_id, body ids, a workspace. */
function unknownRecordProbes(op: ContractOperation): { overrides: Record<string, string>; body?: unknown }[] {
  const params = paramsOf(op);
  const body = jsonBodyOf(op);
  const probes: { overrides: Record<string, string>; body?: unknown }[] = [];
  for (const param of [...params].reverse()) {
    if (param.in === 'path' && param.schema?.format === 'uuid') probes.push({ overrides: { [param.name]: UNKNOWN_ID }, body: body?.example });
    if (param.in === 'path' && param.name === 'workspace') probes.push({ overrides: { workspace: 'no-such-workspace' } });
  }
  if (params.some((p) => p.name === 'merchant_id' && p.in === 'query')) probes.push({ overrides: { merchant_id: UNKNOWN_ID } });
  const example = body?.example as Obj | undefined;
  for (const [field, schema] of Object.entries((body?.schema.properties ?? {}) as Record<string, { format?: string }>)) {
    if (example && field in example && deref(schema).format === 'uuid') probes.push({ overrides: {}, body: { ...example, [field]: UNKNOWN_ID } });
  }
  if (params.some((p) => p.name === 'workspace' && p.in === 'query')) probes.push({ overrides: { workspace: 'no-such-workspace' }, body: body?.example });
  return probes;
}

/** The names an operation takes as input: its parameters and its JSON body's top-level fields; Prefer on the versioned API. */
function inputNames(op: ContractOperation): Set<string> {
  const names = new Set(paramsOf(op).map((p) => p.name));
  for (const field of Object.keys((jsonBodyOf(op)?.schema.properties ?? {}) as Obj)) names.add(field);
  if (op.path.startsWith('/2024-09/')) names.add('Prefer');
  return names;
}

const documenting = (status: number) => contractOperations.filter((op) => op.statuses.includes(status));

describe("Each operation's 404 example is the answer it gives for its own missing record", () => {
  for (const op of documenting(404)) {
    it(`When ${op.operationId} names a record that does not exist, then it answers its documented 404 example`, async () => {
      const example = exampleOf(op, 404);
      expect(example?.message).toMatch(/^[A-Z][a-z ]+ not found\.$/);
      const t = await testApp();
      const answers: unknown[] = [];
      for (const probe of unknownRecordProbes(op)) {
        const req = exampleRequest(t.app, op, probe.overrides);
        const res = await (probe.body === undefined ? req : req.send(probe.body as object));
        if (res.status === 404) answers.push(res.body);
      }
      expect(answers).toContainEqual(example);
    });
  }
});

describe("Each operation's 422 example names its own input", () => {
  it('When the 422 examples are read, then every field they name is a parameter, a body field or the Prefer header of that operation', () => {
    const strangers: string[] = [];
    for (const op of documenting(422)) {
      const names = inputNames(op);
      // An operation with no input at all can only refuse a parameter the contract does not name (strict mode).
      if (names.size === 0) continue;
      const errors = (exampleOf(op, 422)?.errors ?? {}) as Record<string, string[]>;
      expect(Object.keys(errors).length, op.operationId).toBeGreaterThan(0);
      for (const field of Object.keys(errors)) if (!names.has(field.split('.')[0]!)) strangers.push(`${op.operationId}: ${field}`);
    }
    expect(strangers).toEqual([]);
  });

  it('When the channel operations are read, then their examples speak of channels and connection data, not of products', () => {
    const byId = (id: string) => contractOperations.find((op) => op.operationId === id)!;
    expect(exampleOf(byId('getChannel'), 404)).toEqual({ message: 'Channel not found.' });
    expect(Object.keys(exampleOf(byId('storeChannelConnectionData'), 422)?.errors as Obj)).toEqual(['access_token']);
  });
});

describe("Prefer: code answers the operation's own example", () => {
  const versioned = contractOperations.filter((op) => op.path.startsWith('/2024-09/'));
  for (const op of versioned) {
    it(`When ${op.operationId} is asked for Prefer: code=404 or 422, then it answers its own examples`, async () => {
      const t = await testApp();
      for (const status of [404, 422].filter((s) => op.statuses.includes(s))) {
        const req = exampleRequest(t.app, op).set('Prefer', `code=${status}`);
        const example = jsonBodyOf(op)?.example;
        const res = await (example === undefined ? req : req.send(example as object));
        expect(res.status, `${op.operationId} ${status}`).toBe(status);
        expect(res.body).toEqual(exampleOf(op, status));
      }
    });
  }
});

describe('Each 404 an operation gives for a record of another kind is one of its documented examples', () => {
  const examplesOf = (operationId: string): Obj[] => {
    const op = contractOperations.find((o) => o.operationId === operationId)!;
    const response = deref(op.operation.responses?.['404'] as Obj) as { content: Record<string, { example?: Obj; examples?: Record<string, { value: Obj }> }> };
    const media = response.content['application/json']!;
    return media.example ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
  };
  const SUPPLIER = 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001';
  const CATALOG_ITEM = '0627d02b-2539-4fc3-9cec-3f208482b961';

  it('When a user who is no member is removed, a cost tier is unknown, or a scraping request names an unknown supplier, then the 404 is documented', async () => {
    const t = await testApp();
    const answers = {
      removeMerchantMember: await request(t.app)
        .post('/2024-09/users/merchant-memberships/remove')
        .set(t.auth('owner'))
        .send({ merchant_id: demo.merchant, user_id: demo.rival.id }),
      calculateOpportunityForecast: await request(t.app)
        .post('/2024-09/forecasting/opportunity-forecasts/calculate')
        .set(t.auth('owner'))
        .send({ marketplace_catalog_item_id: CATALOG_ITEM, supplier_item_cost_id: UNKNOWN_ID }),
      getScrapingRequest: await request(t.app).get(`/2024-09/suppliers/${UNKNOWN_ID}/scraping-requests/${UNKNOWN_ID}`).set(t.auth('owner')),
    };
    for (const [operationId, res] of Object.entries(answers)) {
      expect(res.status, operationId).toBe(404);
      expect(examplesOf(operationId), operationId).toContainEqual(res.body);
    }
    expect((await request(t.app).get(`/2024-09/suppliers/${SUPPLIER}/scraping-requests/${UNKNOWN_ID}`).set(t.auth('owner'))).body).toEqual(
      examplesOf('getScrapingRequest')[0],
    );
  });
});
