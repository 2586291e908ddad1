import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { checkHandlerMap } from '../../src/areas/handler-map.js';
import { listOperations, loadContract } from '../../src/contract/document/load-contract.js';
import { handlers } from '../../src/handlers.js';
import { projectRoot } from '../../src/paths.js';
import { contractValidator } from '../helpers/contract-schemas.js';

const { doc } = loadContract();
const operations = listOperations(doc);
const versioned = operations.filter((op) => op.path.startsWith('/2024-09/'));

type MediaType = { schema?: unknown; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType>; $ref?: string }>;
  tags?: string[];
  summary?: string;
  description?: string;
};

describe('the contract', () => {
  it('describes the 60 operations of the 2024-09 specification', () => {
    expect(versioned).toHaveLength(60);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
  });

  it('gives every operation a camelCase operationId, one tag, a summary and a description', () => {
    for (const op of operations) {
      const operation = doc.paths[op.path][op.method.toLowerCase()] as Operation;
      expect(op.operationId, op.path).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      expect(operation.tags, op.operationId).toHaveLength(1);
      expect(operation.summary, op.operationId).toBeTruthy();
      expect(operation.description, op.operationId).toBeTruthy();
    }
  });

  it('secures every versioned operation with the bearer token and documents 401', () => {
    for (const op of versioned) {
      expect(op.secured, op.operationId).toBe(true);
      expect(op.statuses, op.operationId).toContain(401);
    }
  });

  it('documents no 403 on the opportunity forecast list, as the specification says', () => {
    const list = operations.find((op) => op.operationId === 'listOpportunityForecasts');
    expect(list?.statuses).not.toContain(403);
    expect(list?.statuses).toEqual(expect.arrayContaining([200, 401, 404, 422]));
  });

  it('has a handler for every operation and an operation for every handler', () => {
    expect(() => checkHandlerMap(doc, handlers)).not.toThrow();
    expect(() => checkHandlerMap(doc, { ...handlers, notAnOperation: () => null })).toThrow(/notAnOperation/);
    const { getSandboxHealth: _omitted, ...withoutOne } = handlers;
    expect(() => checkHandlerMap(doc, withoutOne)).toThrow(/getSandboxHealth/);
  });

  it('gives every request body and every success response an example that validates against its schema', () => {
    const validator = contractValidator();
    expect(validator.checkSchema('Merchant', { id: 'not-a-uuid', name: 'x' }), 'the checker itself must reject a bad record').not.toBeNull();
    const failures: string[] = [];
    for (const op of operations) {
      const method = op.method.toLowerCase();
      const operation = doc.paths[op.path][method] as Operation;
      const check = (where: string[], media: MediaType | undefined, label: string, required: boolean) => {
        if (!media?.schema) return;
        const examples = media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
        if (examples.length === 0 && required) failures.push(`${op.operationId}: ${label} has no example`);
        for (const example of examples) {
          const errors = validator.check([...where, 'schema'], example);
          if (errors) failures.push(`${op.operationId}: ${label} example: ${JSON.stringify(errors.slice(0, 3))}`);
        }
      };
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        check(['paths', op.path, method, 'requestBody', 'content', type], media, `request ${type}`, type === 'application/json');
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response.$ref || !/^2/.test(status)) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          check(['paths', op.path, method, 'responses', status, 'content', type], media, `${status} ${type}`, true);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("is accepted by express-openapi-validator's own OpenAPI schema check (the server skips it at start-up)", async () => {
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: structuredClone(doc) as never, validateApiSpec: true, validateRequests: false, validateResponses: false }));
    app.get('/_sandbox/health', (_req, res) => void res.json({ ok: true }));
    app.use(((err, _req, res, _next) => void res.status(500).json({ message: String(err?.message ?? err) })) as express.ErrorRequestHandler);
    const res = await request(app).get('/_sandbox/health');
    expect(res.body).toEqual({ ok: true });
  });

  it('matches the committed generated types (regenerate with npm run gen:types)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-types-'));
    try {
      const out = join(dir, 'generated.ts');
      execFileSync(process.execPath, [join(projectRoot, 'node_modules/openapi-typescript/bin/cli.js'), join(projectRoot, 'openapi.yaml'), '-o', out], {
        stdio: 'pipe',
      });
      const committed = readFileSync(join(projectRoot, 'src/contract/document/generated.ts'), 'utf8');
      expect(readFileSync(out, 'utf8') === committed, 'src/contract/document/generated.ts is stale: run npm run gen:types').toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
