// The contract fuzz: every operation of openapi.yaml, called with generated valid, boundary and hostile input by
// the owner of merchant A, the owner of merchant B (the rival) and a caller without a token. Problems are gathered
// over the whole run and reported together, so one failure names every operation and status that went wrong.
import type { Server } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { listOperations, loadContract } from '../../src/contract/document/load-contract.js';
import { resetWorld } from '../../src/world.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { contractValidator } from '../helpers/contract-schemas.js';
import { exampleRequest } from '../helpers/contract-requests.js';
import { fuzzRequests, type FuzzRequest, type IdPools } from '../helpers/fuzz-requests.js';

const SEED = 20240901;
const BATCHES = 150;
const BATCH_SIZE = 20;
const { doc } = loadContract();
const operations = listOperations(doc);
const validator = contractValidator();

interface Outcome {
  statuses: string[];
  requests: number;
  problems: string[];
  undocumented: Map<string, number>;
}

/** The ids the generators pick from, and which records belong to which merchant, read from the seeded store. */
function worldIds(t: TestApp) {
  const s = t.store;
  const ownedBy = (merchant: string) => {
    const products = s.products.where('merchant_id', merchant);
    const items = s.supplier_items.where('merchant_id', merchant);
    const productIds = new Set(products.map((p) => p.id));
    const itemIds = new Set(items.map((i) => i.id));
    const records = [
      ...products,
      ...items,
      ...s.suppliers.where('merchant_id', merchant),
      ...s.channels.where('merchant_id', merchant),
      ...s.scraping_requests.where('merchant_id', merchant),
      ...s.opportunity_forecasts.where('merchant_id', merchant),
      ...s.catalog_item_imports.where('merchant_id', merchant),
      ...s.product_identifiers.all().filter((r) => productIds.has(r.product_id)),
      ...s.product_images.all().filter((r) => productIds.has(r.product_id)),
      ...s.supplier_item_identifiers.all().filter((r) => itemIds.has(r.supplier_item_id)),
    ];
    return { ids: new Set([merchant, ...records.map((r) => r.id)]), products, items };
  };
  const a = ownedBy(demo.merchant);
  const b = ownedBy(demo.rivalMerchant);
  const ofMerchant = <T extends { id: string; merchant_id?: string }>(records: T[], merchant: string, n: number) =>
    records
      .filter((r) => r.merchant_id === merchant)
      .slice(0, n)
      .map((r) => r.id);
  const split = <T extends { id: string; merchant_id?: string }>(records: T[]) => ({
    a: ofMerchant(records, demo.merchant, 4),
    b: ofMerchant(records, demo.rivalMerchant, 4),
  });
  const shared = (list: string[]) => ({ a: list, b: list });
  const childrenOf = <T extends { id: string }>(children: T[], parentOf: (c: T) => string, parents: { id: string }[]) => {
    const ids = new Set(parents.slice(0, 4).map((p) => p.id));
    return children
      .filter((c) => ids.has(parentOf(c)))
      .slice(0, 6)
      .map((c) => c.id);
  };
  const pools: IdPools = {
    merchant: { a: [demo.merchant], b: [demo.rivalMerchant] },
    product: split(s.products.all()),
    product_identifier: {
      a: childrenOf(s.product_identifiers.all(), (c) => c.product_id, a.products),
      b: childrenOf(s.product_identifiers.all(), (c) => c.product_id, b.products),
    },
    supplier: split(s.suppliers.all()),
    supplier_scraping_request: split(s.scraping_requests.all()),
    supplier_item: split(s.supplier_items.all()),
    supplier_item_identifier: {
      a: childrenOf(s.supplier_item_identifiers.all(), (c) => c.supplier_item_id, a.items),
      b: childrenOf(s.supplier_item_identifiers.all(), (c) => c.supplier_item_id, b.items),
    },
    supplier_item_cost: { a: a.items.slice(0, 3).flatMap((i) => i.costs.map((c) => c.id)), b: b.items.slice(0, 2).flatMap((i) => i.costs.map((c) => c.id)) },
    channel: split(s.channels.all()),
    marketplace_catalog_item: shared(
      s.catalog_items
        .all()
        .slice(0, 4)
        .map((r) => r.id),
    ),
    marketplace: shared(
      s.marketplaces
        .all()
        .slice(0, 3)
        .map((r) => r.id),
    ),
    user: { a: [demo.owner.id, demo.member.id], b: [demo.rival.id] },
    workspace: shared(['default']),
  };
  pools.any = { a: Object.values(pools).flatMap((p) => p.a), b: Object.values(pools).flatMap((p) => p.b) };
  return { pools, ownedA: a.ids, ownedB: b.ids };
}

/** Segments of the schema of a documented answer in `mediaType`, following $refs; undefined when the status has no body in it. */
function responseSchema(operationPath: string, method: string, status: number, mediaType: string): string[] | undefined {
  let segments = ['paths', operationPath, method.toLowerCase(), 'responses', String(status)];
  let node = segments.reduce<any>((n, k) => n?.[k], doc);
  while (node?.$ref) {
    segments = (node.$ref as string).slice(2).split('/');
    node = segments.reduce<any>((n, k) => n?.[k], doc);
  }
  return node?.content?.[mediaType]?.schema ? [...segments, 'content', mediaType, 'schema'] : undefined;
}

/** The first object in `body` that belongs to a merchant in `owned` (its merchant_id, or its id). */
function foreignRecord(body: unknown, owned: Set<string>, merchant: string): unknown {
  const stack = [body];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    if (record.merchant_id === merchant || (typeof record.id === 'string' && owned.has(record.id))) return record;
    stack.push(...Object.values(record));
  }
  return undefined;
}

/** Runs the fuzz against a fresh app, whose server listens until the test ends. */
async function runFuzz(batches: number, batchSize: number): Promise<Outcome> {
  const t = await testApp();
  return fuzz(t, t.app, batches, batchSize);
}

async function fuzz(t: TestApp, server: Server, batches: number, batchSize: number): Promise<Outcome> {
  const { pools, ownedA, ownedB } = worldIds(t);
  const outcome: Outcome = { statuses: [], requests: 0, problems: [], undocumented: new Map() };
  const problem = (req: FuzzRequest, status: number, what: string) => {
    if (outcome.problems.length < 40)
      outcome.problems.push(
        `${req.operation.operationId} ${req.operation.method} ${req.path}${req.query.slice(0, 120)} body ${req.body?.slice(0, 120) ?? '(none)'} as ${req.user} -> ${status}: ${what}`,
      );
  };
  const send = async (req: FuzzRequest) => {
    const method = req.operation.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let call = request(server)[method](req.path + req.query);
    if (req.user !== 'anonymous') call = call.set('Authorization', `Bearer ${demo[req.user].token}`);
    if (req.body !== undefined) call = call.set('Content-Type', req.contentType ?? 'application/json').send(req.body);
    return call;
  };
  const check = (req: FuzzRequest, res: request.Response) => {
    const { status } = res;
    const op = req.operation;
    outcome.statuses.push(`${op.operationId}:${status}`);
    outcome.requests++;
    if (status >= 500) problem(req, status, `5xx ${res.text.slice(0, 200)}; logged: ${t.errors.at(-1)?.slice(0, 600) ?? 'nothing'}`);
    if (!op.statuses.includes(status)) {
      const key = `${op.operationId} ${status}`;
      outcome.undocumented.set(key, (outcome.undocumented.get(key) ?? 0) + 1);
    }
    if (status >= 400 && (!/json/.test(res.type) || typeof res.body?.message !== 'string'))
      problem(req, status, `error body is not JSON with a message: ${res.type} ${res.text.slice(0, 120)}`);
    // A text answer (the coverage report as JUnit or Markdown) is checked against its own media type's schema.
    const json = !res.type || /json/.test(res.type);
    const schema = op.statuses.includes(status) ? responseSchema(op.path, op.method, status, json ? 'application/json' : res.type) : undefined;
    if (!json && !schema) problem(req, status, `answered as ${res.type}, which the contract does not document for it`);
    if (schema) {
      const errors = validator.check(schema, json ? res.body : res.text);
      if (errors) problem(req, status, `body does not match the contract: ${JSON.stringify(errors.slice(0, 2))}`);
    }
    // The control plane (/_sandbox) is the workspace's own, shared by its users by design.
    if (!op.path.startsWith('/_sandbox')) {
      const leaks = [
        req.user !== 'owner' ? foreignRecord(res.body, ownedA, demo.merchant) : undefined,
        req.user !== 'rival' ? foreignRecord(res.body, ownedB, demo.rivalMerchant) : undefined,
      ].filter(Boolean);
      if (leaks.length) problem(req, status, `another merchant's record: ${JSON.stringify(leaks[0]).slice(0, 160)}`);
    }
  };
  await fc.assert(
    fc.asyncProperty(fc.array(fuzzRequests(doc, operations, pools), { minLength: batchSize, maxLength: batchSize }), async (batch) => {
      // Each batch starts from the seeded world, so a deleted merchant early on does not empty the rest of the run.
      await resetWorld(t.world, t.worlds.seeded);
      for (const req of batch) check(req, await send(req));
      return true;
    }),
    { seed: SEED, numRuns: batches, endOnFailure: true },
  );
  return outcome;
}

describe('contract fuzz', () => {
  it("When every operation is called with valid, boundary and hostile input by two merchants' owners, then no 5xx, only documented statuses, bodies that match the contract, JSON errors with a message and no other merchant's data", async () => {
    const outcome = await runFuzz(BATCHES, BATCH_SIZE);
    expect(outcome.requests).toBeGreaterThanOrEqual(2000);
    const called = new Set(outcome.statuses.map((s) => s.split(':')[0]));
    expect(operations.filter((op) => !called.has(op.operationId)).map((op) => op.operationId)).toEqual([]);
    const undocumented = [...outcome.undocumented].map(([pair, n]) => `${pair} (x${n})`).sort();
    expect({ problems: outcome.problems, undocumented }).toEqual({ problems: [], undocumented: [] });
  }, 180_000);

  it('When the fuzz runs twice with the same seed, then it sends the same requests and gets the same statuses', async () => {
    const first = await runFuzz(3, BATCH_SIZE);
    const second = await runFuzz(3, BATCH_SIZE);
    expect(first.statuses.length).toBe(3 * BATCH_SIZE);
    expect(second.statuses).toEqual(first.statuses);
  }, 60_000);
});

/** The ways a client sends "no body": nothing at all, no bytes with a JSON type, JSON `null`, whitespace only. */
const NO_BODY: { label: string; send: (call: request.Test) => request.Test }[] = [
  { label: 'no body', send: (call) => call },
  { label: 'no bytes with a JSON Content-Type', send: (call) => call.set('Content-Type', 'application/json') },
  { label: 'null', send: (call) => call.set('Content-Type', 'application/json').send('null') },
  { label: 'whitespace only', send: (call) => call.set('Content-Type', 'application/json').send(' \r\n\t ') },
];

describe('contract fuzz: required bodies that do not come', () => {
  const required = operations.filter((op) => (op.operation.requestBody as { required?: boolean } | undefined)?.required === true);

  it('When the contract is read, then the operations with a required body include the PUTs that once answered 204 or 500', () => {
    expect(required.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['updateProduct', 'updateCurrentUser', 'updateSupplier', 'updateSupplierItem']),
    );
  });

  it.each(required.map((op) => [op.operationId, op] as const))(
    'When %s is sent no body, no bytes, null or whitespace, then 422 The body field is required. (a JSON body) or its documented 415',
    async (_id, op) => {
      const t = await testApp();
      const takesJson = Object.keys((op.operation.requestBody as { content: Record<string, unknown> }).content).includes('application/json');
      for (const { label, send } of NO_BODY) {
        const res = await send(exampleRequest(t.app, op));
        const seen = `${label} -> ${res.status} ${res.text.slice(0, 160)}`;
        expect(op.statuses, seen).toContain(res.status);
        if (takesJson) expect({ status: res.status, message: res.body.message }, seen).toEqual({ status: 422, message: 'The body field is required.' });
        else expect([415, 422], seen).toContain(res.status);
        expect(res.body.message, seen).toEqual(expect.any(String));
      }
      expect(t.errors).toEqual([]);
    },
  );
});

describe('contract fuzz: optional bodies typed as JSON that hold nothing', () => {
  const optional = operations.filter((op) => {
    const body = op.operation.requestBody as { required?: boolean; content?: Record<string, unknown> } | undefined;
    return body !== undefined && body.required !== true && body.content?.['application/json'] !== undefined;
  });

  it('When the contract is read, then the optional JSON bodies include the relay and the control plane creations', () => {
    expect(optional.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['sendRetailerRequest', 'replaceRetailerResource', 'createSandboxWorkspace', 'createSandboxUser']),
    );
  });

  it.each(optional.map((op) => [op.operationId, op] as const))(
    'When %s is sent no bytes, null or whitespace under a JSON Content-Type, then 422 naming the body, as any body that is not an object; with no body at all it is not refused for its body',
    async (_id, op) => {
      const t = await testApp();
      for (const { label, send } of NO_BODY) {
        const res = await send(exampleRequest(t.app, op));
        const seen = `${label} -> ${res.status} ${res.text.slice(0, 160)}`;
        expect(op.statuses, seen).toContain(res.status);
        if (label === 'no body') expect(res.body.errors?.body, seen).toBeUndefined();
        else expect({ status: res.status, errors: res.body.errors }, seen).toEqual({ status: 422, errors: { body: ['The body field must be object.'] } });
      }
      expect(t.errors).toEqual([]);
    },
  );
});
