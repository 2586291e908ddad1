// The validator compiles each component schema once (the validator's patch, patches/README.md): every operation's
// check that refers to a component calls that one compiled function. So an operation whose first request comes after
// another operation's compiled the components it uses compiles only what is its own, on a first call as in a turn of
// the warm-up (src/pipeline/validator-warm-up.ts). Measured in CPU time of this thread, against the same first call
// on a validator that compiled nothing yet, in the same rounds.
import express, { type ErrorRequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { createRequestAjv } from 'express-openapi-validator/dist/framework/ajv/index.js';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { VALIDATOR_OPTIONS } from '../../src/compiled-contract.js';

const FIELDS = 300;
const field = (i: number) => `field_${i}`;

/**
 * One large component, referred to by GET /one's answer (as its `data`) and GET /list's (as its items). (An answer
 * that is the component itself, not a ref inside it, is compiled with the operation's check: the validator's
 * preparation puts the component in place of such a ref.)
 */
function contract() {
  const properties = Object.fromEntries(
    Array.from({ length: FIELDS }, (_, i) => [field(i), { type: 'string', minLength: 1, maxLength: 40, pattern: '^[a-z]+$' }]),
  );
  const ok = (schema: object) => ({ description: 'ok', content: { 'application/json': { schema } } });
  return {
    openapi: '3.1.0',
    info: { title: 'shared components', version: '1' },
    paths: {
      '/one': {
        get: {
          operationId: 'getOne',
          responses: { 200: ok({ type: 'object', required: ['data'], properties: { data: { $ref: '#/components/schemas/Record' } } }) },
        },
      },
      '/list': {
        get: {
          operationId: 'listAll',
          responses: {
            200: ok({ type: 'object', required: ['items'], properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Record' } } } }),
          },
        },
      },
    },
    components: { schemas: { Record: { type: 'object', required: [field(0)], properties } } },
  };
}

const record = Object.fromEntries(Array.from({ length: FIELDS }, (_, i) => [field(i), 'abc']));

/** An app over a validator of its own (nothing compiled yet); `/list?broken` answers a record that breaks the contract. */
function app() {
  const server = express();
  server.use(OpenApiValidator.middleware({ apiSpec: contract() as never, ...VALIDATOR_OPTIONS }));
  server.get('/one', (_req, res) => void res.json({ data: record }));
  server.get('/list', (req, res) => void res.json({ items: [req.query.broken === undefined ? record : { ...record, [field(0)]: 7 }] }));
  const errors: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => void res.status(error.status ?? 500).json({});
  server.use(errors);
  return server;
}

/** CPU time (user + system, this thread) of one call, in ms, and its status. */
async function cpuOf(server: express.Express, path: string): Promise<{ ms: number; status: number }> {
  const before = process.threadCpuUsage();
  const res = await request(server).get(path);
  const used = process.threadCpuUsage(before);
  return { ms: (used.user + used.system) / 1000, status: res.status };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('Each component schema is compiled once', () => {
  it('When an operation that uses a component another operation compiled is called first, then its first call takes a fraction of the CPU it takes on a validator that compiled nothing', async () => {
    // One round before measuring: the first compile of the process also compiles the validator's and Ajv's own code.
    await cpuOf(app(), '/list');
    const alone: number[] = [];
    const after: number[] = [];
    for (let round = 0; round < 5; round++) {
      const fresh = await cpuOf(app(), '/list');
      const warmed = app();
      expect((await cpuOf(warmed, '/one')).status).toBe(200);
      const second = await cpuOf(warmed, '/list');
      expect([fresh.status, second.status]).toEqual([200, 200]);
      alone.push(fresh.ms);
      after.push(second.ms);
    }
    // Compiled again, the component is most of the list's check: its first call would cost about as much either way.
    expect(median(after)).toBeLessThan(median(alone) / 2);
  }, 60_000);

  it('When the shared component is answered wrong through the second operation, then that answer is still refused', async () => {
    const server = app();
    expect((await request(server).get('/one')).status).toBe(200);
    expect((await request(server).get('/list?broken')).status).toBe(500);
    expect((await request(server).get('/list')).status).toBe(200);
  });
});

describe('A component schema is added to an Ajv instance once something refers to it', () => {
  it('When the request Ajv is made, then no component is walked until a check refers to it or it is asked for, and the check validates by it', () => {
    const doc = contract();
    const schemas = doc.components.schemas as Record<string, object>;
    schemas.Unused = { type: 'string' };
    const ajv = createRequestAjv(doc as never, { formats: {} } as never);
    expect(ajv.schemas['#/components/schemas/Record']).toBeUndefined();
    expect(ajv.schemas['#/components/schemas/Unused']).toBeUndefined();

    const check = ajv.compile({ type: 'object', properties: { data: { $ref: '#/components/schemas/Record' } } });
    expect(ajv.schemas['#/components/schemas/Record']).toBeDefined();
    expect(check({ data: record })).toBe(true);
    expect(check({ data: { ...record, [field(0)]: 7 } })).toBe(false);
    expect(ajv.schemas['#/components/schemas/Unused']).toBeUndefined();

    // Asked for by its key (as the parameter parsers and compileComponent ask), it is added and compiled.
    expect(ajv.getSchema('#/components/schemas/Unused')?.('text')).toBe(true);
    expect(ajv.getSchema('#/components/schemas/Missing')).toBeUndefined();
  });

  it('When a component is one Ajv refuses, then the Ajv is still made and every check that refers to it reports the same error', () => {
    const doc = contract();
    (doc.components.schemas as Record<string, object>).Broken = { $id: 7, type: 'string' };
    const ajv = createRequestAjv(doc as never, { formats: {} } as never);
    const refersToBroken = () => ajv.compile({ type: 'object', properties: { b: { $ref: '#/components/schemas/Broken' } } });
    expect(refersToBroken).toThrow('schema $id must be string');
    expect(refersToBroken).toThrow('schema $id must be string');
    // A check that does not refer to it is unaffected.
    expect(ajv.compile({ type: 'object', properties: { data: { $ref: '#/components/schemas/Record' } } })({ data: record })).toBe(true);
  });

  it("When the request Ajv is made with schema validation off (the validator's own options), then it holds no meta-schema and still checks by the contract", () => {
    const ajv = createRequestAjv(contract() as never, { formats: {}, validateSchema: false } as never);
    expect(ajv.getSchema('https://json-schema.org/draft/2020-12/schema')).toBeUndefined();
    const check = ajv.compile({ type: 'object', properties: { data: { $ref: '#/components/schemas/Record' } } });
    expect(check({ data: record })).toBe(true);
    expect(check({ data: { ...record, [field(0)]: 7 } })).toBe(false);
    // Made with schema validation on, it keeps them.
    expect(createRequestAjv(contract() as never, { formats: {} } as never).getSchema('https://json-schema.org/draft/2020-12/schema')).toBeDefined();
  });
});
