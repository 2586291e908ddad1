import { describe, expect, it } from 'vitest';
import { listOperations, loadContract, type ContractDocument } from '../../src/contract/document/load-contract.js';
import { CoverageTracker } from '../../src/observe/world-observations.js';

const operations = listOperations({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/2024-09/products': {
      parameters: [],
      get: { operationId: 'listProducts', tags: ['Products'], responses: { '200': {}, '422': {}, '401': {} } },
      post: { operationId: 'createProduct', tags: ['Products'], responses: { '201': {}, '401': {}, '422': {} } },
    },
    '/2024-09/products/{product}': {
      get: { operationId: 'getProduct', tags: ['Products'], responses: { '200': {}, '404': {} } },
      delete: { responses: { '204': {} } }, // no operationId: not trackable
    },
  },
} as ContractDocument);

describe('coverage', () => {
  it('When nothing was answered, then every documented status is missing, in ascending order', () => {
    const r = new CoverageTracker(operations).report();
    expect(r.operations.map((o) => o.operation_id)).toEqual(['listProducts', 'createProduct', 'getProduct']);
    expect(r.operations[0]).toEqual({
      operation_id: 'listProducts',
      method: 'GET',
      path: '/2024-09/products',
      tag: 'Products',
      documented: ['200', '401', '422'],
      answered: [],
      missing: ['200', '401', '422'],
      undocumented: [],
      forced: [],
      not_client_causable: [],
    });
    expect(r.totals).toEqual({
      operations: 3,
      operations_exercised: 0,
      operations_complete: 0,
      documented_statuses: 8,
      answered_statuses: 0,
      missing_statuses: 8,
      percent: 0,
    });
  });

  it('When statuses are recorded, then answered and missing split the documented ones and totals add up', () => {
    const c = new CoverageTracker(operations);
    c.record('listProducts', 200);
    c.record('listProducts', 200);
    c.record('listProducts', 401);
    c.record('getProduct', 200);
    c.record('getProduct', 404);
    c.record('createProduct', 413); // transport error, not documented per operation
    const r = c.report();
    const list = r.operations.find((o) => o.operation_id === 'listProducts')!;
    expect(list.answered).toEqual(['200', '401']);
    expect(list.missing).toEqual(['422']);
    const create = r.operations.find((o) => o.operation_id === 'createProduct')!;
    expect(create.undocumented).toEqual(['413']);
    expect(create.answered).toEqual([]);
    expect(r.totals).toMatchObject({ operations_exercised: 3, operations_complete: 1, answered_statuses: 4, missing_statuses: 4, percent: 50 });
  });

  it('When the request matched no operation, then nothing is recorded', () => {
    const c = new CoverageTracker(operations);
    expect(c.record(null, 404)).toBe(false);
    expect(c.record('noSuchOperation', 200)).toBe(false);
    expect(c.report().totals.operations_exercised).toBe(0);
  });

  it('When reset, then everything is missing again', () => {
    const c = new CoverageTracker(operations);
    c.record('listProducts', 200);
    c.reset();
    expect(c.report().totals.answered_statuses).toBe(0);
  });

  it('When built from the real contract, then all 60 versioned operations are reported with their statuses', () => {
    const api = listOperations(loadContract().doc).filter((op) => !op.tags.includes('Sandbox'));
    const report = new CoverageTracker(api).report();
    expect(report.operations).toHaveLength(60);
    for (const op of report.operations) expect(op.documented.length).toBeGreaterThan(1);
  });
});
