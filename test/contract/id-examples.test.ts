import { describe, expect, it } from 'vitest';
import type { ContractOperation } from '../../src/contract/document/load-contract.js';
import { contractOperations, exampleRequest, jsonBodyOf, paramsOf, type Param } from '../helpers/contract-requests.js';
import { testApp } from '../helpers/app.js';

/** A parameter that takes a record's id: a uuid path parameter, or a uuid query parameter named `id` or `*_id`. */
const takesId = (p: Param) => p.schema?.format === 'uuid' && (p.in === 'path' || p.name === 'id' || p.name.endsWith('_id'));

/** The operations "Try it out" should run with one click: every one with an id parameter. */
const withIds = contractOperations.filter((op) => paramsOf(op).some(takesId));

/** Lists that are empty in the seeded world whatever the ids, with the reason. */
const EMPTY_WHEN_SEEDED: Record<string, string> = { listChannelCalls: 'the seeded world has made no retailer calls yet' };

/** The id parameters' examples, as Swagger UI fills them in (optional filters too). */
function idExamples(op: ContractOperation): Record<string, string> {
  return Object.fromEntries(
    paramsOf(op)
      .filter(takesId)
      .map((p) => [p.name, String(p.example)]),
  );
}

describe("Id parameters carry the demo world's ids", () => {
  it('When the contract is read, then every id parameter has an example', () => {
    const missing = withIds.flatMap((op) =>
      paramsOf(op)
        .filter((p) => takesId(p) && p.example === undefined)
        .map((p) => `${op.operationId} ${p.name}`),
    );
    expect(missing).toEqual([]);
  });

  for (const op of withIds) {
    it(`When ${op.operationId} is tried with its examples as the demo owner, then it succeeds on a record the owner can read`, async () => {
      const t = await testApp();
      // A path without a GET (identifiers, uploads, calls) is tried with the operation itself.
      const read = contractOperations.find((o) => o.path === op.path && o.method === 'GET') ?? op;
      const req = exampleRequest(t.app, read, idExamples(read));
      const body = read.method === 'GET' ? undefined : jsonBodyOf(read)?.example;
      const res = await (body === undefined ? req : req.send(body as object));
      expect(res.status, `${read.operationId}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(300);
      if (read.method === 'GET' && Array.isArray(res.body?.data) && !EMPTY_WHEN_SEEDED[read.operationId])
        expect(res.body.data.length, `${read.operationId} lists nothing`).toBeGreaterThan(0);
    });
  }
});
