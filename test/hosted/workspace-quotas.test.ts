import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions } from '../../src/config.js';
import { RECORD_QUOTA_EXTENSION } from '../../src/contract/record-quota.js';
import { testApp, demo, type TestApp } from '../helpers/app.js';
import { contractOperations, deref } from '../helpers/contract-requests.js';

const MiB = 2 ** 20;
const supplier = (name: string) => ({ merchant_id: demo.merchant, name, default_currency: 'EUR' });
// A PNG as the upload rules check it (its signature), of a given size.
const png = (size: number) => {
  const bytes = Buffer.alloc(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
};

async function workspaceOwner(t: TestApp): Promise<Record<string, string>> {
  const created = await request(t.app).post('/_sandbox/workspaces').expect(201);
  return t.bearer(created.body.data.tokens.owner);
}

type Examples = Record<string, { value: { message: string; errors?: Record<string, string[]> } }>;
const examplesOf = (operationId: string, status: number): Examples => {
  const op = contractOperations.find((o) => o.operationId === operationId)!;
  const response = deref(op.operation.responses![String(status)]) as { content: Record<string, { examples?: Examples }> };
  return response.content['application/json']!.examples ?? {};
};

describe('the record quota of a workspace', () => {
  it('When a workspace holds the records it may add, then one more answers 422 naming the quota, nothing of it is kept, and deleting one makes room', async () => {
    const t = await testApp({ workspaceMaxRecords: 2 });
    const owner = await workspaceOwner(t);
    const first = await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('One')).expect(201);
    await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('Two')).expect(201);
    const refused = await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('Three')).expect(422);
    expect(refused.body.message).toMatch(/2 records .*WORKSPACE_MAX_RECORDS/);
    expect(refused.body.errors).toEqual({ quota: [refused.body.message] });
    const documented = examplesOf('createSupplier', 422)['record-quota']!.value;
    expect(refused.body.message).toBe(documented.message.replace('20000', '2'));
    const names = (await request(t.app).get(`/2024-09/suppliers?merchant_id=${demo.merchant}&per_page=100`).set(owner).expect(200)).body.data.map(
      (s: { name: string }) => s.name,
    );
    expect(names).not.toContain('Three');

    await request(t.app).delete(`/2024-09/suppliers/${first.body.data.id}`).set(owner).expect(204);
    await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('Three')).expect(201);
    expect(t.errors).toEqual([]);
  });

  it('When a request would add more records than the room left (a merchant and its membership), then it is refused whole', async () => {
    const t = await testApp({ workspaceMaxRecords: 1 });
    const owner = await workspaceOwner(t);
    await request(t.app).post('/2024-09/merchants').set(owner).send({ name: 'Two Records Ltd' }).expect(422);
    const merchants = (await request(t.app).get('/2024-09/merchants').set(owner).expect(200)).body.data.map((m: { name: string }) => m.name);
    expect(merchants).not.toContain('Two Records Ltd');
    await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('Fits')).expect(201);
  });

  it('When one workspace is full, then another workspace and the default world still add records', async () => {
    const t = await testApp({ workspaceMaxRecords: 1 });
    const full = await workspaceOwner(t);
    await request(t.app).post('/2024-09/suppliers').set(full).send(supplier('One')).expect(201);
    await request(t.app).post('/2024-09/suppliers').set(full).send(supplier('Two')).expect(422);
    await request(t.app)
      .post('/2024-09/suppliers')
      .set(await workspaceOwner(t))
      .send(supplier('Other'))
      .expect(201);
    for (const name of ['A', 'B']) await request(t.app).post('/2024-09/suppliers').set(t.auth('owner')).send(supplier(name)).expect(201);
  });

  it('When a workspace is reset, then its quota is free again', async () => {
    const t = await testApp({ workspaceMaxRecords: 1 });
    const owner = await workspaceOwner(t);
    await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('One')).expect(201);
    await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('Two')).expect(422);
    await request(t.app).post('/_sandbox/reset').set(owner).expect(204);
    await request(t.app).post('/2024-09/suppliers').set(owner).send(supplier('Two')).expect(201);
  });

  it('When the contract is read, then every operation under the record quota documents its 422 with an example naming the quota', () => {
    const marked = contractOperations.filter((op) => op.operation[RECORD_QUOTA_EXTENSION] === true);
    expect(marked.map((op) => op.operationId)).toEqual(expect.arrayContaining(['createProduct', 'createSupplier', 'createMerchant', 'createProductImage']));
    for (const op of marked) {
      const example = examplesOf(op.operationId, 422)['record-quota']?.value;
      expect(example?.errors?.quota, op.operationId).toEqual([example?.message]);
      expect(example?.message, op.operationId).toMatch(/WORKSPACE_MAX_RECORDS/);
    }
  });
});

describe('the upload quota of a workspace', () => {
  it('When an upload would take a workspace past its upload bytes, then 413 naming the quota, no image is kept, and deleting one makes room', async () => {
    const t = await testApp({ workspaceMaxUploadBytes: 2 * MiB });
    const owner = await workspaceOwner(t);
    const product = (await request(t.app).get(`/2024-09/products?merchant_id=${demo.merchant}&per_page=1`).set(owner).expect(200)).body.data[0].id;
    const upload = () =>
      request(t.app).post(`/2024-09/products/${product}/images`).set(owner).attach('file', png(MiB), { filename: 'a.png', contentType: 'image/png' });
    const first = await upload().expect(201);
    await upload().expect(201);
    const refused = await upload().expect(413);
    expect(refused.body).toEqual({ message: examplesOf('createProductImage', 413)['upload-quota']!.value.message.replace('100 MiB', '2 MiB') });
    const images = (await request(t.app).get(`/2024-09/products/${product}/images`).set(owner).expect(200)).body.data;
    expect(images.filter((i: { content_type: string | null }) => i.content_type === 'image/png')).toHaveLength(2);

    await request(t.app).delete(`/2024-09/products/${product}`).set(owner).expect(204);
    const another = (await request(t.app).get(`/2024-09/products?merchant_id=${demo.merchant}&per_page=1`).set(owner).expect(200)).body.data[0].id;
    await request(t.app)
      .post(`/2024-09/products/${another}/images`)
      .set(owner)
      .attach('file', png(MiB), { filename: 'b.png', contentType: 'image/png' })
      .expect(201);
    expect(first.body.data.size).toBe(MiB);
  });
});

describe('configuring the quotas', () => {
  it('When WORKSPACE_MAX_RECORDS and WORKSPACE_MAX_UPLOAD_MB are set, then the configuration takes them; out of range, it says so', () => {
    const parsed = parseArgs([]);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const ok = configFromOptions(parsed.options, { WORKSPACE_MAX_RECORDS: '500', WORKSPACE_MAX_UPLOAD_MB: '10' });
    expect(ok.errors).toEqual([]);
    expect(ok.config).toMatchObject({ workspaceMaxRecords: 500, workspaceMaxUploadBytes: 10 * MiB });
    const defaults = configFromOptions(parsed.options, {});
    expect(defaults.config).toMatchObject({ workspaceMaxRecords: 20_000, workspaceMaxUploadBytes: 100 * MiB });
    expect(configFromOptions(parsed.options, { WORKSPACE_MAX_RECORDS: '0', WORKSPACE_MAX_UPLOAD_MB: 'lots' }).errors).toEqual([
      "WORKSPACE_MAX_RECORDS must be an integer from 1 to 10000000, got '0'",
      "WORKSPACE_MAX_UPLOAD_MB must be an integer from 1 to 100000, got 'lots'",
    ]);
  });
});
