import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { operationFacts } from '../../src/contract/document/operation-facts.js';
import { compileRoutes, fastPathsByOperation } from '../../src/pipeline/route-operation.js';

// The contract's paths remember which matcher each path met (the listener in front of Express and the pipeline's
// routing both ask them); these show that what they remember never changes where a request goes: the method still
// picks the operation, each request gets its own path parameters, and a bound that is passed only forgets.
const { doc } = loadContract();

/** The front listener with a fast path on every GET, recording who answered each request. */
function front() {
  const answered: string[] = [];
  const listener = fastPathsByOperation(
    doc,
    (op) => (op.method === 'GET' ? () => answered.push(`fast ${op.operationId}`) : undefined),
    () => answered.push('express'),
  );
  const send = (method: string, url: string) => listener({ method, url } as IncomingMessage, {} as ServerResponse);
  return { answered, send };
}

describe('Fast paths, chosen by the operation a request names', () => {
  it('When the same path is read again, with a query or another method, then each goes where its operation says', () => {
    const { answered, send } = front();
    send('GET', '/2024-09/products?merchant_id=x');
    send('GET', '/2024-09/products?per_page=1');
    send('POST', '/2024-09/products');
    send('DELETE', '/2024-09/products');
    send('GET', '/2024-09/products');
    expect(answered).toEqual(['fast listProducts', 'fast listProducts', 'express', 'express', 'fast listProducts']);
  });

  it('When a path names no operation, or another spelling of one, then Express answers it, each time', () => {
    const { answered, send } = front();
    for (let i = 0; i < 2; i++) {
      send('GET', '/2024-09/PRODUCTS');
      send('GET', '/docs/');
    }
    expect(answered).toEqual(['express', 'express', 'express', 'express']);
  });

  it('When more distinct paths are read than it remembers, then later reads still route by their operation', () => {
    const { answered, send } = front();
    for (let i = 0; i < 5000; i++) send('GET', `/2024-09/products/prod_${i}`);
    send('GET', '/2024-09/products/prod_1');
    send('PUT', '/2024-09/products/prod_1');
    expect(new Set(answered.slice(0, 5001))).toEqual(new Set(['fast getProduct']));
    expect(answered.at(-1)).toBe('express');
  });
});

describe("The pipeline's routing, on paths it has seen before", () => {
  const route = compileRoutes(doc, operationFacts(doc));
  const status = (run: () => unknown) => {
    try {
      run();
      return 200;
    } catch (error) {
      return (error as { status?: number }).status;
    }
  };

  it('When the same path is routed again with another method or id, then each gets its own operation, parameters or 405', () => {
    expect(route('GET', '/2024-09/products/prod_1').pathParams).toEqual({ product: 'prod_1' });
    expect(route('GET', '/2024-09/products/prod%202').pathParams).toEqual({ product: 'prod 2' });
    expect(route('PUT', '/2024-09/products/prod_1').id).toBe('updateProduct');
    expect(status(() => route('PATCH', '/2024-09/products/prod_1'))).toBe(405);
    expect(status(() => route('GET', '/2024-09/PRODUCTS/prod_1'))).toBe(404);
    expect(status(() => route('GET', '/2024-09/PRODUCTS/prod_1'))).toBe(404);
  });
});
