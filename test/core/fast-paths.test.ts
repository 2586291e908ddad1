import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { operationFacts } from '../../src/contract/document/operation-facts.js';
import { compileRoutes } from '../../src/pipeline/route-operation.js';

// The contract's paths remember which matcher each path met; these show that what they remember never changes where a request goes: the method still
// picks the operation, each request gets its own path parameters, and a bound that is passed only forgets.
const { doc } = loadContract();

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

  it('When more distinct paths are routed than it remembers, then later ones still route by their operation', () => {
    for (let i = 0; i < 5000; i++) expect(route('GET', `/2024-09/products/prod_${i}`).id).toBe('getProduct');
    expect(route('GET', '/2024-09/products/prod_1').pathParams).toEqual({ product: 'prod_1' });
    expect(route('PUT', '/2024-09/products/prod_1').id).toBe('updateProduct');
  });
});
