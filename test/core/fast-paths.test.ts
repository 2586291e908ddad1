import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { fastPathsByOperation } from '../../src/pipeline/route-operation.js';

// The listener in front of Express remembers which matcher each path met; these show that what it remembers never
// changes where a request goes: the method still picks the operation, and a bound that is passed only forgets.
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
    send('PATCH', '/2024-09/products/prod_1');
    expect(new Set(answered.slice(0, 5001))).toEqual(new Set(['fast getProduct']));
    expect(answered.at(-1)).toBe('express');
  });
});
