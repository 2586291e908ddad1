// The service's order of checks, over every operation of the contract that names a record in its path or a
// merchant_id: token (401), then the records (404 unknown, 403 not a member, 404 where no 403 is documented), then
// the shape of the input (422). The operations come from openapi.yaml, so a new one cannot be left out.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { DEMO_SCRAPING_REQUEST_ID, DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { deref, isObj, listOperations, loadContract, type ContractOperation } from '../../src/contract/document/load-contract.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { channels, ORDERS } from '../channels/support.js';

const { doc } = loadContract();
type Obj = Record<string, unknown>;

/** How each path parameter's record is named in a 404, and whether it belongs to a merchant (shared data does not). */
const RECORDS: Record<string, { what: string; owned: boolean }> = {
  merchant: { what: 'Merchant', owned: true },
  channel: { what: 'Channel', owned: true },
  product: { what: 'Product', owned: true },
  product_identifier: { what: 'Product identifier', owned: true },
  supplier: { what: 'Supplier', owned: true },
  supplier_scraping_request: { what: 'Scraping request', owned: true },
  supplier_item: { what: 'Supplier item', owned: true },
  supplier_item_identifier: { what: 'Supplier item identifier', owned: true },
  marketplace_catalog_item: { what: 'Catalog item', owned: false },
  workspace: { what: 'Workspace', owned: false },
  user: { what: 'User', owned: false },
};
/** Path parameters that name no record. */
const NOT_A_RECORD = new Set(['endpoint']);

const UNKNOWN_ID = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
const UNKNOWN_WORKSPACE = 'feedfacecafe';

interface Case {
  op: ContractOperation;
  ids: string[];
  merchantIn?: 'query' | 'body';
  /** Query and body that break the contract's types, or undefined where the operation takes nothing to break. */
  invalid: { query: Obj; body?: Obj } | undefined;
}

const parametersOf = (op: ContractOperation): Obj[] =>
  [...(((doc.paths[op.path] as Obj).parameters as unknown[]) ?? []), ...((op.operation.parameters as unknown[]) ?? [])].map((p) => deref(doc, p)).filter(isObj);

function jsonBodySchema(op: ContractOperation): Obj | undefined {
  const body = deref(doc, op.operation.requestBody);
  const media = isObj(body) && isObj(body.content) ? deref(doc, body.content['application/json']) : undefined;
  const schema = isObj(media) ? deref(doc, media.schema) : undefined;
  return isObj(schema) ? schema : undefined;
}

/** A value of the wrong type for a schema: what must be a 422 once the records are found. */
function wrongValue(schema: Obj): unknown {
  if (Array.isArray(schema.enum)) return 'not-one-of-them';
  if (schema.type === 'string') return schema.format === undefined ? 12345 : `not-a-${String(schema.format)}`;
  return `not-a-${String(schema.type ?? 'value')}`;
}

function invalidInput(op: ContractOperation): Case['invalid'] {
  const query: Obj = {};
  for (const p of parametersOf(op)) {
    const schema = deref(doc, p.schema);
    if (p.in === 'query' && p.name !== 'merchant_id' && p.name !== 'workspace' && isObj(schema)) query[String(p.name)] = wrongValue(schema);
  }
  const schema = jsonBodySchema(op);
  const properties = schema && isObj(schema.properties) ? Object.entries(schema.properties).filter(([name]) => name !== 'merchant_id') : [];
  const typed = properties.map(([name, s]) => [name, deref(doc, s)] as const).find(([, s]) => isObj(s) && (s.type !== undefined || s.enum !== undefined));
  const body = typed ? { [typed[0]]: wrongValue(typed[1] as Obj) } : undefined;
  return Object.keys(query).length || body ? { query, body } : undefined;
}

function merchantIn(op: ContractOperation): Case['merchantIn'] {
  if (parametersOf(op).some((p) => p.in === 'query' && p.name === 'merchant_id')) return 'query';
  const schema = jsonBodySchema(op);
  return Array.isArray(schema?.required) && schema.required.includes('merchant_id') ? 'body' : undefined;
}

const cases: Case[] = listOperations(doc)
  .map((op) => ({
    op,
    ids: [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).filter((name) => !NOT_A_RECORD.has(name)),
    merchantIn: merchantIn(op),
    invalid: invalidInput(op),
  }))
  .filter((c) => c.ids.length > 0 || c.merchantIn !== undefined);

/** A real record of the demo merchant (or of the shared catalog and control plane) for a path parameter. */
function realId(t: TestApp, name: string): string {
  const demoProduct = (productId: string) => t.store.products.get(productId)?.merchant_id === demo.merchant;
  const demoItem = (itemId: string) => t.store.supplier_items.get(itemId)?.merchant_id === demo.merchant;
  const now = t.clock.now().getTime();
  const ids: Record<string, () => string> = {
    merchant: () => demo.merchant,
    channel: () => channels.connected,
    product: () => DEMO_PRODUCT_ID,
    product_identifier: () => t.store.product_identifiers.all().find((i) => demoProduct(i.product_id))!.id,
    supplier: () => DEMO_SUPPLIER_ID,
    supplier_scraping_request: () => DEMO_SCRAPING_REQUEST_ID,
    supplier_item: () => DEMO_SUPPLIER_ITEM_ID,
    supplier_item_identifier: () => t.store.supplier_item_identifiers.all().find((i) => demoItem(i.supplier_item_id))!.id,
    marketplace_catalog_item: () => t.store.catalog_items.all().find((i) => Date.parse(i.available_at) <= now)!.id,
    // Only operations on a workspace pay for seeding one.
    workspace: () => t.worlds.createWorkspace().world.id,
    endpoint: () => ORDERS,
    user: () => demo.owner.id,
  };
  return ids[name]();
}

interface Send {
  /** Ids that replace the real ones, by path parameter. */
  ids: Record<string, string>;
  merchantId?: string;
  invalid: boolean;
  /** Adds a query parameter the contract does not name: whether it is refused or ignored, it must not come first. */
  stray?: boolean;
  who?: 'owner' | 'rival';
}

function send(t: TestApp, c: Case, { ids, merchantId, invalid, stray, who }: Send) {
  const path = c.op.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? realId(t, name));
  const query: Obj = { ...(invalid ? c.invalid?.query : {}), ...(stray ? { order_of_checks_probe: '1' } : {}) };
  let body: Obj | undefined = invalid ? c.invalid?.body : undefined;
  if (c.merchantIn === 'query') query.merchant_id = merchantId;
  if (c.merchantIn === 'body') body = { ...body, merchant_id: merchantId };
  const method = c.op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  let req = request(t.app)
    [method](path)
    .query(query as Record<string, string>);
  if (who) req = req.set(t.auth(who));
  return body === undefined ? req : req.send(body);
}

/** Whether the operation takes a JSON body. */
const takesJson = (c: Case) => jsonBodySchema(c.op) !== undefined;

/** The operation called with the records of `ids` (real ones for the others) and a JSON body cut short. */
function sendMalformed(t: TestApp, c: Case, ids: Record<string, string>, who?: 'owner' | 'rival') {
  const path = c.op.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? realId(t, name));
  const query = c.merchantIn === 'query' ? { merchant_id: demo.merchant } : {};
  const method = c.op.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
  const req = request(t.app)[method](path).query(query).set('Content-Type', 'application/json');
  return (who ? req.set(t.auth(who)) : req).send('{"name":');
}

const documents = (c: Case, status: number) => c.op.statuses.includes(status);
const named = (c: Case) => `${c.op.operationId} (${c.op.method} ${c.op.path})`;

describe('the order of checks, over every operation that names a record or a merchant_id', () => {
  let t: TestApp;
  const ids = {};
  beforeEach(async () => {
    t = await testApp();
  });

  it('When the contract is walked, then every path parameter is a known record or declared as none', () => {
    expect(cases.length).toBeGreaterThan(40);
    for (const c of cases) for (const name of c.ids) expect(Object.keys(RECORDS), named(c)).toContain(name);
  });

  it.each(cases.filter((c) => c.invalid).map((c) => [named(c), c] as const))(
    'When %s names real records and its input breaks the contract, then 422 (the input the cases below send)',
    async (_name, c) => {
      const res = await send(t, c, { ids, merchantId: demo.merchant, invalid: true, who: 'owner' });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
    },
  );

  it.each(cases.flatMap((c) => c.ids.map((param) => [named(c), param, c] as const)))(
    'When %s names an unknown %s and its input breaks the contract, then 404 naming the record',
    async (_name, param, c) => {
      const unknown = { [param]: param === 'workspace' ? UNKNOWN_WORKSPACE : UNKNOWN_ID };
      const res = await send(t, c, { ids: unknown, merchantId: demo.merchant, invalid: true, stray: true, who: c.op.secured ? 'owner' : undefined });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.message).toBe(`${RECORDS[param].what} not found.`);
      expect(t.errors).toEqual([]);
    },
  );

  it.each(cases.filter((c) => c.merchantIn).map((c) => [named(c), c] as const))(
    'When %s names an unknown merchant_id and its input breaks the contract, then 404',
    async (_name, c) => {
      const res = await send(t, c, { ids, merchantId: UNKNOWN_ID, invalid: true, stray: true, who: 'owner' });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.message).toBe('Merchant not found.');
    },
  );

  it.each(
    cases
      .filter((c) => c.op.secured && (c.merchantIn || c.ids.some((param) => RECORDS[param].owned)))
      .map((c) => [named(c), documents(c, 403) ? 403 : 404, c] as const),
  )("When %s names another merchant's records and its input breaks the contract, then %i", async (_name, status, c) => {
    const res = await send(t, c, { ids, merchantId: demo.merchant, invalid: true, stray: true, who: 'rival' });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
  });

  it.each(cases.filter((c) => takesJson(c)).flatMap((c) => c.ids.map((param) => [named(c), param, c] as const)))(
    'When %s names an unknown %s and its body is not valid JSON, then 404 naming the record: the body is input',
    async (_name, param, c) => {
      const unknown = { [param]: param === 'workspace' ? UNKNOWN_WORKSPACE : UNKNOWN_ID };
      const res = await sendMalformed(t, c, unknown, c.op.secured ? 'owner' : undefined);
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.message).toBe(`${RECORDS[param].what} not found.`);
    },
  );

  it.each(
    cases
      .filter((c) => takesJson(c) && c.op.secured && c.ids.some((param) => RECORDS[param].owned))
      .map((c) => [named(c), documents(c, 403) ? 403 : 404, c] as const),
  )("When %s names another merchant's records and its body is not valid JSON, then %i", async (_name, status, c) => {
    const res = await sendMalformed(t, c, ids, 'rival');
    expect(res.status, JSON.stringify(res.body)).toBe(status);
  });

  it.each(cases.filter((c) => takesJson(c)).map((c) => [named(c), c] as const))(
    "When %s names the caller's records and its body is not valid JSON, then 400 (a merchant_id in it cannot be read)",
    async (_name, c) => {
      const res = await sendMalformed(t, c, ids, c.op.secured ? 'owner' : undefined);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toEqual({ message: 'The request body is not valid JSON.' });
    },
  );

  it.each(cases.filter((c) => c.op.secured).map((c) => [named(c), c] as const))(
    'When %s is called without a token, with unknown records and input that breaks the contract, then 401',
    async (_name, c) => {
      const unknown = Object.fromEntries(c.ids.map((name) => [name, UNKNOWN_ID]));
      const res = await send(t, c, { ids: unknown, merchantId: UNKNOWN_ID, invalid: true, stray: true });
      expect(res.status, JSON.stringify(res.body)).toBe(401);
    },
  );
});

describe('the order of checks, named', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
  });

  it('When the channel is unknown and the body has an invalid field, then 404 "Channel not found."', async () => {
    const res = await request(t.app).put(`/2024-09/channels/${UNKNOWN_ID}`).set(t.auth('owner')).send({ name: 123 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Channel not found.' });
  });

  it("When the channel is another merchant's and the body has an invalid field, then 403 and the channel is unchanged", async () => {
    const before = t.store.channels.get(channels.connected);
    const res = await request(t.app).put(`/2024-09/channels/${channels.connected}`).set(t.auth('rival')).send({ name: 123 });
    expect(res.status).toBe(403);
    expect(t.store.channels.get(channels.connected)).toEqual(before);
  });

  it("When the channel is the caller's and the body has an invalid field, then 422 naming the field", async () => {
    const res = await request(t.app).put(`/2024-09/channels/${channels.connected}`).set(t.auth('owner')).send({ name: 123 });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['name']);
  });

  it('When the supplier item is unknown and the body breaks the tiers, then 404 "Supplier item not found."', async () => {
    const res = await request(t.app)
      .put(`/2024-09/supplier-items/${UNKNOWN_ID}`)
      .set(t.auth('owner'))
      .send({ costs: [{ minimum_order_quantity: 0, cost: { value: -1, currency: 'USD' } }] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Supplier item not found.');
  });

  it('When merchant_id is unknown and required fields are missing, then 404 "Merchant not found."', async () => {
    const res = await request(t.app).post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: UNKNOWN_ID });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Merchant not found.');
  });

  it("When merchant_id is another merchant's and required fields are missing, then 403", async () => {
    const res = await request(t.app).post('/2024-09/products').set(t.auth('rival')).send({ merchant_id: demo.merchant });
    expect(res.status).toBe(403);
  });

  it('When merchant_id is not a UUID, then 422 naming merchant_id: its shape is input, not a record', async () => {
    const res = await request(t.app).get('/2024-09/products').query({ merchant_id: 'not-a-uuid' }).set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain('merchant_id');
    const inBody = await request(t.app).post('/2024-09/suppliers').set(t.auth('owner')).send({ merchant_id: 42, name: 'x', default_currency: 'USD' });
    expect(inBody.status).toBe(422);
    expect(Object.keys(inBody.body.errors)).toContain('merchant_id');
  });

  it('When the channel id in the path is not a UUID, then 404', async () => {
    const res = await request(t.app).get('/2024-09/channels/not-a-uuid').set(t.auth('owner'));
    expect(res.status).toBe(404);
  });

  it("When the scraping request is another supplier's of the same merchant, then 404, even for a member", async () => {
    const other = t.store.suppliers.where('merchant_id', demo.merchant).find((s) => s.id !== DEMO_SUPPLIER_ID)!;
    const res = await request(t.app).get(`/2024-09/suppliers/${other.id}/scraping-requests/${DEMO_SCRAPING_REQUEST_ID}`).set(t.auth('owner'));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Scraping request not found.');
    await request(t.app).get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests/${DEMO_SCRAPING_REQUEST_ID}`).set(t.auth('owner')).expect(200);
  });

  it('When the opportunity forecasts of another merchant are listed with an invalid filter, then 404: the operation documents no 403', async () => {
    const res = await request(t.app)
      .get('/2024-09/forecasting/opportunity-forecasts')
      .query({ merchant_id: demo.merchant, minimum_profit: 'lots' })
      .set(t.auth('rival'));
    expect(res.status).toBe(404);
  });

  it("When the body breaks the contract and repeats a taken SKU, then 422 names only the contract's field: handler rules come after validation", async () => {
    const taken = t.store.products.get(DEMO_PRODUCT_ID)!.sku;
    const res = await request(t.app).post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant, sku: taken, title: 123 });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['title']);
  });

  it("When a member who is not an owner deletes the merchant, then 403 from the handler's own rule", async () => {
    const res = await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('member'));
    expect(res.status).toBe(403);
    expect(t.store.merchants.get(demo.merchant)).toBeDefined();
  });

  it('When the product is unknown and the body comes in an encoding the reader does not take, then 404; when it is known, then 415', async () => {
    const send = (product: string) =>
      request(t.app)
        .post(`/2024-09/products/${product}/identifiers`)
        .set(t.auth('owner'))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('{"type":"EAN","value":"4006381333931"}');
    const unknown = await send(UNKNOWN_ID);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Product not found.' });
    const known = await send(DEMO_PRODUCT_ID);
    expect(known.status).toBe(415);
    expect(known.body.message).toMatch(/compress/);
  });

  it("When a body that is not valid JSON names a product of another merchant's, then 403, and nothing is written", async () => {
    const before = t.store.product_identifiers.all().length;
    const res = await request(t.app)
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/identifiers`)
      .set(t.auth('rival'))
      .set('Content-Type', 'application/json')
      .send('{"type":');
    expect(res.status).toBe(403);
    expect(t.store.product_identifiers.all()).toHaveLength(before);
  });

  // A `workspace` the contract accepts (1 to 64 characters) is a name, whatever its spelling: it names a record first.
  const workspaceQueryOps = listOperations(doc).filter((op) => parametersOf(op).some((p) => p.in === 'query' && p.name === 'workspace'));
  it.each(workspaceQueryOps.flatMap((op) => ['nope', 'my-ci-run'].map((name) => [op.operationId, name, op] as const)))(
    'When %s names the unknown workspace %s and its input breaks the contract, then 404 "Workspace not found."',
    async (_id, name, op) => {
      const invalid = invalidInput(op);
      const method = op.method.toLowerCase() as 'get' | 'post' | 'delete';
      const path = op.path.replace(/\{([^}]+)\}/g, (_, param: string) => realId(t, param));
      const req = request(t.app)
        [method](path)
        .query({ ...invalid?.query, workspace: name } as Record<string, string>);
      const res = await (invalid?.body ? req.send(invalid.body) : req);
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body.message).toBe('Workspace not found.');
    },
  );

  it('When the workspace named is longer than the contract allows, then 422 naming it: that is input, not a name', async () => {
    expect(workspaceQueryOps.length).toBeGreaterThan(3);
    const res = await request(t.app)
      .get('/_sandbox/requests')
      .query({ workspace: 'w'.repeat(65) });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['workspace']);
  });

  it('When the control plane advances the clock of an unknown workspace with an invalid body, then 404 "Workspace not found."', async () => {
    const res = await request(t.app).post('/_sandbox/clock/advance').query({ workspace: UNKNOWN_WORKSPACE }).send({ hours: 'two' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Workspace not found.');
  });
});
