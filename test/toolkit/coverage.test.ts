import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CoverageTracker, documentedOperations } from '../../src/sandbox/coverage.js';

const spec = {
  paths: {
    '/2024-09/products': {
      parameters: [],
      get: { operationId: 'listProducts', tags: ['Products'], responses: { '200': {}, '401': {}, '422': {} } },
      post: { operationId: 'createProduct', tags: ['Products'], responses: { '201': {}, '401': {}, '422': {} } },
    },
    '/2024-09/products/{product}': {
      get: { operationId: 'getProduct', tags: ['Products'], responses: { '200': {}, '404': {}, '4XX': {}, default: {} } },
      delete: { responses: { '204': {} } }, // no operationId: not trackable
    },
    '/_sandbox/health': { get: { operationId: 'getSandboxHealth', tags: ['Sandbox'], responses: { '200': {} } } },
  },
};

describe('coverage', () => {
  it('When built from a contract, then it lists each operation with its documented statuses in contract order', () => {
    expect(documentedOperations(spec).map((o) => `${o.method} ${o.path} ${o.operationId} ${o.statuses.join(',')}`)).toEqual([
      'GET /2024-09/products listProducts 200,401,422',
      'POST /2024-09/products createProduct 201,401,422',
      'GET /2024-09/products/{product} getProduct 200,404,4XX,default',
      'GET /_sandbox/health getSandboxHealth 200',
    ]);
  });

  it('When nothing was answered, then every documented status is missing', () => {
    const r = new CoverageTracker(spec).report();
    expect(r.operations[0]).toEqual({
      operation_id: 'listProducts',
      method: 'GET',
      path: '/2024-09/products',
      tag: 'Products',
      documented: ['200', '401', '422'],
      answered: [],
      missing: ['200', '401', '422'],
      undocumented: [],
    });
    expect(r.totals).toEqual({
      operations: 4,
      operations_exercised: 0,
      operations_complete: 0,
      documented_statuses: 11,
      answered_statuses: 0,
      missing_statuses: 11,
      percent: 0,
    });
  });

  it('When statuses are recorded, then answered and missing split the documented ones and totals add up', () => {
    const c = new CoverageTracker(spec);
    c.record('listProducts', 200);
    c.record('listProducts', 200);
    c.record('listProducts', 401);
    c.record('getSandboxHealth', 200);
    c.record('createProduct', 413); // transport error, not documented per operation
    const r = c.report();
    const list = r.operations.find((o) => o.operation_id === 'listProducts')!;
    expect(list.answered).toEqual(['200', '401']);
    expect(list.missing).toEqual(['422']);
    const create = r.operations.find((o) => o.operation_id === 'createProduct')!;
    expect(create.undocumented).toEqual(['413']);
    expect(create.answered).toEqual([]);
    expect(r.totals).toMatchObject({ operations_exercised: 3, operations_complete: 1, answered_statuses: 3, missing_statuses: 8, percent: 27.3 });
  });

  it('When an operation documents a range and default, then exact codes win and the rest fall into them', () => {
    const c = new CoverageTracker(spec);
    c.record('getProduct', 404);
    let get = c.report().operations.find((o) => o.operation_id === 'getProduct')!;
    expect(get.answered).toEqual(['404']);
    c.record('getProduct', 403);
    c.record('getProduct', 500);
    get = c.report().operations.find((o) => o.operation_id === 'getProduct')!;
    expect(get.answered).toEqual(['404', '4XX', 'default']);
    expect(get.missing).toEqual(['200']);
  });

  it('When the request matched no operation, then nothing is recorded', () => {
    const c = new CoverageTracker(spec);
    expect(c.record(null, 404)).toBe(false);
    expect(c.record('noSuchOperation', 200)).toBe(false);
    expect(c.report().totals.operations_exercised).toBe(0);
  });

  it('When reset, then everything is missing again', () => {
    const c = new CoverageTracker(spec);
    c.record('listProducts', 200);
    c.reset();
    expect(c.report().totals.answered_statuses).toBe(0);
  });

  it('When an include filter leaves out the control plane, then only the API is reported', () => {
    const c = new CoverageTracker(spec, { include: (op) => !op.tags.includes('Sandbox') });
    expect(c.report().operations.map((o) => o.operation_id)).toEqual(['listProducts', 'createProduct', 'getProduct']);
  });

  it('When built from the real openapi.yaml, then every operation is listed with at least one status', () => {
    const real = parseYaml(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    const ops = documentedOperations(real);
    expect(ops.length).toBeGreaterThan(0);
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    for (const op of ops) expect(op.statuses.length).toBeGreaterThan(0);
  });
});
