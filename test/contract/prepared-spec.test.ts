// The validator's spec prepared by the build (dist/validator-spec.json, src/contract/document/validator-spec-json.ts)
// stands for the preparation the validator otherwise does at start: carried through JSON and handed back, it checks
// every request and answer as the validator's own preparation does, from the first one on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { prepareSpec } from 'express-openapi-validator';
import type { PreparedSpec } from 'express-openapi-validator/dist/framework/types.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract, VALIDATOR_OPTIONS } from '../../src/compiled-contract.js';
import { loadContract, type LoadedContract } from '../../src/contract/document/load-contract.js';
import { readValidatorSpecJson, writeValidatorSpecJson } from '../../src/contract/document/validator-spec-json.js';
import { testApp } from '../helpers/app.js';
import { contractOperations, exampleRequest, jsonBodyOf } from '../helpers/contract-requests.js';

const OPTIONS = JSON.stringify(VALIDATOR_OPTIONS);
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const { text, doc } = loadContract();
let dir: string;
let prepared: PreparedSpec;

/** The contract as read, with the prepared spec read from `file` (as loadContract gives the build's). */
const withSpecFile = (file: string): LoadedContract => ({ text, doc, preparedSpec: (options) => readValidatorSpecJson(text, options, file) });
/** The contract as read, with no prepared spec: the validator prepares it itself. */
const unprepared = (): LoadedContract => ({ text, doc });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-validator-spec-'));
  prepared = await prepareSpec({ apiSpec: structuredClone(doc) as never, ...VALIDATOR_OPTIONS });
  writeValidatorSpecJson(text, OPTIONS, prepared, join(dir, 'validator-spec.json'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("The validator's spec prepared by the build", () => {
  it('When each operation gets its example request and a body of the wrong type first, then the validator given the prepared spec answers as the one preparing it itself', async () => {
    const ahead = await testApp({}, { contract: compileContract(withSpecFile(join(dir, 'validator-spec.json'))) });
    const itself = await testApp({}, { contract: compileContract(unprepared()) });
    const answers = async (app: typeof ahead.app) => {
      const seen: string[] = [];
      for (const op of contractOperations) {
        const wrong = jsonBodyOf(op) ? await exampleRequest(app, op).set('Content-Type', 'application/json').send('["wrong"]') : undefined;
        const example = await exampleRequest(app, op).send(jsonBodyOf(op)?.example as object);
        seen.push(`${op.operationId}: ${wrong ? `${wrong.status} ${wrong.text} / ` : ''}${example.status}`);
      }
      return seen;
    };
    const fromPrepared = await answers(ahead.app);
    expect(fromPrepared).toEqual(await answers(itself.app));
    expect(fromPrepared.filter((line) => / 422 \{/.test(line)).length).toBeGreaterThan(5);
  }, 120_000);

  it('When the prepared spec says otherwise than the contract, then the validator checks by the prepared spec (it is what the validator uses)', async () => {
    const altered = structuredClone(prepared) as PreparedSpec & { apiDoc: { components: { schemas: Record<string, { properties: Record<string, object> }> } } };
    altered.apiDoc.components.schemas.ProductCreate!.properties.title = { type: 'string', maxLength: 3 };
    writeValidatorSpecJson(text, OPTIONS, altered, join(dir, 'altered.json'));
    const body = { merchant_id: MERCHANT, sku: 'PREPARED-1', title: 'Longer than three' };
    const ahead = await testApp({}, { contract: compileContract(withSpecFile(join(dir, 'altered.json'))) });
    const res = await request(ahead.app).post('/2024-09/products').set(ahead.auth('owner')).send(body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('title');
    const itself = await testApp({}, { contract: compileContract(unprepared()) });
    await request(itself.app).post('/2024-09/products').set(itself.auth('owner')).send(body).expect(201);
  });

  it('When the first answer breaks the contract, then the validator given the prepared spec refuses it (answers are checked from the first on)', async () => {
    const refusal = async (contract: LoadedContract) => {
      const app = express();
      app.use([...compileContract(contract).validator]);
      app.get('/2024-09/users/current', (_req, res) => res.json({ data: { id: 1 } }));
      app.use((error: { status?: number; message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
        res.status(error.status ?? 500).json({ message: error.message });
      });
      const res = await request(app).get('/2024-09/users/current').set('Authorization', 'Bearer demo-owner-token');
      return [res.status, res.body.message];
    };
    const fromPrepared = await refusal(withSpecFile(join(dir, 'validator-spec.json')));
    expect(fromPrepared[0]).toBe(500);
    expect(fromPrepared[1]).toMatch(/^\/response\/data /);
    expect(fromPrepared).toEqual(await refusal(unprepared()));
  });

  it('When the contract text or the options differ from those it was made with, then no prepared spec is read; one JSON cannot carry is never written', () => {
    const file = join(dir, 'validator-spec.json');
    expect(readValidatorSpecJson(text, OPTIONS, file)).toEqual(prepared);
    expect(readValidatorSpecJson(`${text}\n`, OPTIONS, file)).toBeUndefined();
    expect(readValidatorSpecJson(text, JSON.stringify({ ...VALIDATOR_OPTIONS, validateFormats: false }), file)).toBeUndefined();
    expect(readValidatorSpecJson(text, OPTIONS, join(dir, 'missing.json'))).toBeUndefined();
    expect(() => writeValidatorSpecJson(text, OPTIONS, { ...prepared, routes: [{ matcher: () => true }] }, join(dir, 'refused.json'))).toThrow(/JSON/);
  });
});
